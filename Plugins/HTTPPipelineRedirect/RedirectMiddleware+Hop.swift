import Foundation
import HTTPPipeline
import HTTPPipelineRedaction

extension RedirectMiddleware {
    /// Whether a status is one this layer follows: 301, 302, 303, 307 or 308.
    // A switch, not a set: every response is asked, and hashing the status costs more.
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The fields that describe a body, dropped with it when a redirect turns a request into a GET.
    static let bodyFields = ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"]

    /// The request a redirect leads to, and the hop as the history records it.
    struct Hop {
        var request: HTTPRequest
        let record: HTTPRedirectHop
    }

    /// The next hop after `response` answered `request`, or `nil` when the response is not a
    /// redirect to follow: not a redirect status, or a 307/308 whose body cannot be sent again.
    ///
    /// - Throws: ``RedirectError`` when the redirect is one to follow but cannot or may not be.
    func nextHop(after response: HTTPResponseHead, of request: HTTPRequest, hopsSoFar: Int, limit: Int)
        throws(RedirectError) -> Hop?
    {
        let status = response.status.code
        guard Self.isRedirect(status) else { return nil }
        let method = request.method
        let becomesGet =
            switch status {
            case 303: method != .head
            case 301, 302: method != .get && method != .head
            default: false
            }
        guard becomesGet || request.isReplayable else { return nil }
        guard hopsSoFar < limit else { throw .tooManyRedirects(limit: limit) }

        let target = try Self.target(of: response, status: status, from: request.url)
        if !policy.allowsInsecureRedirects, request.url.scheme?.lowercased() == "https",
            target.scheme?.lowercased() == "http", let from = HTTPOrigin(request.url), let to = HTTPOrigin(target)
        {
            throw .insecureRedirect(from: from, to: to)
        }

        var next = request
        next.url = target
        if becomesGet {
            next.method = .get
            next.body = nil
            for name in Self.bodyFields { next.fields.removeAll(named: HTTPField.Name(unchecked: name)) }
        }
        if HTTPOrigin(target) != HTTPOrigin(request.url) {
            // A credential never leaves the origin it was meant for: the fields every policy
            // drops, the policy's own, those a layer marked as credentials (auth, default
            // headers), and every field whose name the redaction engine knows as secret.
            var dropped = Set(policy.fieldsDroppedAcrossOrigins.map { HTTPField.Name(unchecked: $0) })
            dropped.formUnion(request.context.credentialFields)
            for field in request.fields where Redaction.default.isSecretHeader(field.name.rawName) {
                dropped.insert(field.name)
            }
            for name in dropped { next.fields.removeAll(named: name) }
        }
        return Hop(
            request: next,
            record: HTTPRedirectHop(status: response.status, from: request.url, to: target, method: next.method))
    }

    /// The `Location` of a redirect, resolved against `base`, with `base`'s fragment when it has
    /// none of its own.
    ///
    /// - Throws: ``RedirectError`` for a missing or malformed `Location`, or one that is not http(s).
    static func target(of response: HTTPResponseHead, status: Int, from base: URL) throws(RedirectError) -> URL {
        guard let field = response.fields["Location"] else { throw .missingLocation(status: status) }
        let location = field.trimmingCharacters(in: [" ", "\t"])
        guard !location.isEmpty, let resolved = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = resolved.scheme?.lowercased()
        else { throw .malformedLocation(status: status, location: field) }
        guard scheme == "http" || scheme == "https" else {
            throw .unsupportedScheme(status: status, scheme: scheme)
        }
        guard let host = resolved.host(percentEncoded: false), !host.isEmpty, HTTPOrigin(resolved) != nil else {
            throw .malformedLocation(status: status, location: field)
        }
        guard resolved.fragment(percentEncoded: true) == nil, let fragment = base.fragment(percentEncoded: true),
            let carried = URL(string: resolved.absoluteString + "#" + fragment)
        else { return resolved }
        return carried
    }
}

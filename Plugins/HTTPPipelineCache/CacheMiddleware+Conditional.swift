import Foundation
import HTTPPipeline

/// The caller's own conditional request (RFC 9111 §4.3.2): answered from a stored response that
/// may be served as it is, else passed through, its 304 freshening what is stored.
extension CacheMiddleware {
    func conditional(
        _ request: HTTPRequest, key: String, stored: CacheEntry?, directives: CacheDirectives, policy: CachePolicy,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        let fields = request.fields
        // Only `If-None-Match` and `If-Modified-Since` are evaluated here; a request with a
        // precondition the cache does not evaluate goes to the origin.
        let evaluable =
            (fields[.ifNoneMatch] != nil || fields[.ifModifiedSince] != nil) && fields[.ifMatch] == nil
            && fields[HTTPField.Name(unchecked: "If-Unmodified-Since")] == nil
            && fields[HTTPField.Name(unchecked: "If-Range")] == nil
        if evaluable, let entry = stored, entry.status == 200 {
            let standing = standing(of: entry)
            if isServable(entry, standing: standing, directives: directives, policy: policy) {
                return Self.conditionHolds(request, for: entry)
                    ? serve(entry, request: request, standing: standing, detail: nil)
                    : notModified(entry, standing: standing)
            }
        }
        if policy == .returnCachedOnly || directives.onlyIfCached { return gatewayTimeout(key) }
        // The caller validates its own copy: pass it through, and let a 304 freshen ours.
        let requestTime = state.now()
        let response = try await next(request)
        if response.status == 304, request.method == .get, !directives.noStore {
            await freshen(key, request: request, with: response, requestTime: requestTime)
        }
        return bypassing(response)
    }

    /// Whether the request's condition holds against `entry` (RFC 9110 §13.2.2): `If-None-Match`
    /// when present (weak comparison, `*` matching any), else `If-Modified-Since` against the
    /// stored `Last-Modified`, or its `Date`, or when it was received (RFC 9111 §4.3.2).
    static func conditionHolds(_ request: HTTPRequest, for entry: CacheEntry) -> Bool {
        let noneMatch = request.fields[values: .ifNoneMatch]
        if !noneMatch.isEmpty {
            let stored = EntityTag(entry.fields[.eTag])
            for member in noneMatch.flatMap({ EntityTag.list($0) }) {
                if member == "*" { return false }
                if let tag = EntityTag(member), let stored, tag.weakMatches(stored) { return false }
            }
            return true
        }
        guard let since = request.fields[.ifModifiedSince].flatMap({ HTTPDate.parse($0) }) else { return true }
        let modified =
            entry.fields[.lastModified].flatMap { HTTPDate.parse($0, now: entry.responseTime) } ?? entry.dateValue
        return modified > since
    }

    /// A 304 made from `entry`: the fields a 200 would have carried that RFC 9110 §15.4.5 names.
    func notModified(_ entry: CacheEntry, standing: Standing) -> HTTPResponse {
        var fields = HTTPFields()
        for name in ["Cache-Control", "Content-Location", "Date", "ETag", "Expires", "Vary", "Last-Modified"] {
            let fieldName = HTTPField.Name(unchecked: name)
            for value in entry.fields[values: fieldName] { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        fields[.age] = String(Int(max(0, standing.age).rounded(.down)))
        let ttl = Int((standing.lifetime - standing.age).rounded(.down))
        CacheStatusField.append("\(options.name); hit; ttl=\(ttl); detail=not-modified", to: &fields)
        return HTTPResponse(head: HTTPResponseHead(status: 304, fields: fields), body: .empty)
    }
}

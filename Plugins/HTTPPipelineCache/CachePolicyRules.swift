import Foundation
import HTTPPipeline

/// RFC 9111's rules that need no store: what may be stored (§3), what a request asks (§5.2.1),
/// and which responses an unsafe request invalidates (§4.4).
enum CachePolicyRules {
    /// Status codes cacheable by default (RFC 9110 §15.1): heuristic freshness may apply.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The status codes whose caching rules this cache implements (for `must-understand`,
    /// RFC 9111 §5.2.2.3): those RFC 9110 and RFC 6585 define, less 206 (partial content is not
    /// stored) and 304 (it updates rather than replaces).
    static let understood: Set<Int> = Set(
        [200, 201, 202, 203, 204, 205, 300, 301, 302, 303, 305, 307, 308]
            + Array(400...417) + [421, 422, 426, 428, 429, 431, 451] + Array(500...505) + [511])

    /// Whether `status` is a final status this cache stores at all: 2xx to 5xx, less 206 and 304.
    static func storable(_ status: Int) -> Bool {
        (200...599).contains(status) && status != 206 && status != 304
    }

    /// Why a response may not be stored (RFC 9111 §3), or `nil` when it may.
    static func refusal(
        request: HTTPRequest, requestDirectives: CacheDirectives, status: Int, fields: HTTPFields, shared: Bool
    ) -> String? {
        guard request.method == .get else { return "only GET responses are stored" }
        guard storable(status) else { return "status \(status) is not stored" }
        let directives = CacheDirectives(fields)
        if directives.mustUnderstand {
            // §5.2.2.3: a cache that implements the status code's rules ignores no-store; one
            // that does not must not store the response.
            guard understood.contains(status) else { return "must-understand with a status this cache does not know" }
        } else if directives.noStore {
            return "the response says no-store"
        }
        if requestDirectives.noStore { return "the request says no-store" }
        if shared, directives.isPrivate { return "a shared cache does not store a private response" }
        if shared, request.fields[.authorization] != nil,
            !(directives.isPublic || directives.sharedMaxAge != nil || directives.mustRevalidate)
        {
            return "a shared cache stores an authorised response only when it says public, s-maxage or must-revalidate"
        }
        if fields[values: .vary].contains(where: {
            $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "*" }
        }) {
            return "Vary: * never matches a later request"
        }
        let explicit =
            directives.isPublic || directives.maxAge != nil || (shared && directives.sharedMaxAge != nil)
            || !fields[values: .expires].isEmpty || (!shared && directives.isPrivate)
        guard explicit || heuristicallyCacheable.contains(status) else {
            return "status \(status) is stored only with explicit freshness"
        }
        return nil
    }

    /// Whether a method is unsafe (RFC 9110 §9.2.1): its success invalidates stored responses.
    static func isUnsafe(_ method: HTTPMethod) -> Bool {
        ![HTTPMethod.get, .head, .options, .trace].contains(method)
    }

    /// The request's directives: `Cache-Control`, or `Pragma: no-cache` when it has none (§5.4).
    static func requestDirectives(_ request: HTTPRequest) -> CacheDirectives {
        var directives = CacheDirectives(request.fields)
        if !directives.isPresent,
            request.fields[values: .pragma].contains(where: {
                $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "no-cache" }
            })
        {
            directives.noCache = true
        }
        return directives
    }

    /// Whether the request is conditional: the caller validates, the cache passes it through.
    static func isConditional(_ request: HTTPRequest) -> Bool {
        [
            HTTPField.Name.ifNoneMatch, .ifModifiedSince, .ifMatch, HTTPField.Name(unchecked: "If-Unmodified-Since"),
            HTTPField.Name(unchecked: "If-Range"),
        ].contains { request.fields[$0] != nil }
    }
}

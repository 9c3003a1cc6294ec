public import Foundation
public import HTTPPipeline

/// An HTTP cache (RFC 9111, with `stale-while-revalidate` and `stale-if-error` of RFC 5861 and
/// `immutable` of RFC 8246) over any transport: fresh responses are served without a round trip,
/// stale ones validated with a conditional request, and each served response carries `Age` and a
/// `Cache-Status` member (RFC 9211) that ``CacheOutcome`` reads.
///
/// ```swift
/// import HTTPPipeline
/// import HTTPPipelineAuth
/// import HTTPPipelineCache
///
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     AuthMiddleware(source: tokenStore)
///     CacheMiddleware()   // inside auth: keyed by the identity each request carries
/// }
/// ```
///
/// - **Storing** (§3): only `GET` responses the standard lets it store: not `no-store` (unless
///   `must-understand`), not `private` in a shared cache, not a response to an authorised request
///   in a shared cache unless `public`, `s-maxage` or `must-revalidate` says so, not `Vary: *`,
///   never a partial or incomplete one, and only with explicit freshness or a status cacheable
///   by default. A body longer than ``CacheOptions/maximumEntryBytes`` passes through unstored.
/// - **Reusing** (§4): fresh by `s-maxage` (shared), `max-age`, `Expires` or a heuristic; the
///   request's `max-age`, `min-fresh`, `max-stale`, `no-cache` and `only-if-cached` (and
///   `Pragma: no-cache`) apply; `no-cache`, `must-revalidate` and `proxy-revalidate` responses are
///   validated; `Vary` selects among variants; a `HEAD` is answered from a stored `GET`.
/// - **Validating** (§4.3): `If-None-Match` and `If-Modified-Since` from the stored validators;
///   a 304 updates the stored fields and serves the stored body. A caller's own conditional
///   request passes through, and its 304 still freshens what is stored.
/// - **Invalidating** (§4.4): a non-error answer to an unsafe method removes what is stored for
///   its URI and for a same-origin `Location` or `Content-Location`.
/// - **Identity**: a private cache keys every response by the credential fields its request
///   carried, so a response stored for one user is never served to another, and a signed-out
///   request (no credential) never sees a signed-in user's responses.
///
/// ## Ordering
/// - **Inside auth**: it must see the credential a request carries to keep users apart. Outside
///   auth, every request is anonymous to it and one user's private responses would be served to
///   the next.
/// - **Outside logging** to log only what goes to the network; inside, to log every response
///   with its `Cache-Status`.
public struct CacheMiddleware: HTTPMiddleware {
    let options: CacheOptions
    let state: CacheState

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - options: Private or shared, the store, the limits; ``CacheOptions`` defaults.
    ///   - now: The wall clock ages are measured on.
    public init(options: CacheOptions = CacheOptions(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.options = options
        self.state = CacheState(now: now)
    }

    /// Empties the store (for example on sign-out, to free the memory a user's responses hold;
    /// their identity already keeps them from anyone else).
    public func removeAll() async {
        await options.store.removeAll()
    }

    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        guard request.context.observation != nil else { return try await answer(request, next: next) }
        let response = try await answer(request, next: next)
        let kind: HTTPEvent.Kind? =
            switch CacheOutcome(response.head, cache: options.name) {
            case .hit?: .cacheHit
            case .staleHit?: .cacheStaleServed
            case .revalidated?: .cacheRevalidated
            case .miss?: .cacheMiss
            case .bypass?, nil: nil
            }
        if let kind { request.report(kind, status: response.status) }
        return response
    }

    /// The cache's answer to `request`: from the store, revalidated, or fetched.
    private func answer(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let method = request.method
        guard method == .get || method == .head, let key = CacheKey.key(for: request.url) else {
            let response = try await next(request)
            if CachePolicyRules.isUnsafe(method), (200..<400).contains(response.status.code) {
                await invalidate(after: request, response: response)
            }
            return bypassing(response, because: method == .get || method == .head ? "bypass" : "method")
        }
        let policy = request.context.cachePolicy ?? .useProtocol
        let directives = CachePolicyRules.requestDirectives(request)
        let identity = options.mode == .private ? CacheKey.identity(of: request) : nil
        let variants = policy == .reloadIgnoringCache ? [] : await options.store.entries(forKey: key)
        let stored = variants.first { CacheKey.matches($0, request, identity: identity) }
        if CachePolicyRules.isConditional(request) {
            return try await conditional(
                request, key: key, stored: stored, directives: directives, policy: policy, next: next)
        }
        guard let entry = stored else {
            if policy == .returnCachedOnly || directives.onlyIfCached { return gatewayTimeout(key) }
            if policy == .reloadIgnoringCache {
                return try await fetch(
                    request, key: key, identity: identity, directives: directives, forward: "request", next: next)
            }
            return try await miss(
                request, key: key, identity: identity, directives: directives, policy: policy,
                forward: variants.isEmpty ? "uri-miss" : "vary-miss", next: next)
        }
        return try await reuse(
            entry, request: request, key: key, identity: identity, directives: directives, policy: policy, next: next)
    }
}

/// What copies of one middleware value share: the clock, the revalidations running in the
/// background, and the misses under way.
final class CacheState: Sendable {
    let now: @Sendable () -> Date
    let revalidating = Locked<Set<String>>([])
    let flights = MissFlights()

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }
}

public import HTTPPipeline

/// How a ``CacheMiddleware`` caches: for one user or many, where, and within which bounds.
public struct CacheOptions: Sendable {
    /// Whose cache it is (RFC 9111 §1).
    public enum Mode: Sendable, Equatable {
        /// One user's cache (an app's): stores `private` responses, and partitions what it stores
        /// by the credential each request carries, so one identity's responses are never served
        /// to another.
        case `private`
        /// A cache many users share (a gateway's): refuses `private` responses, stores a response
        /// to an authorised request only when it says `public`, `s-maxage` or `must-revalidate`,
        /// honours `s-maxage` and `proxy-revalidate`.
        case shared
    }

    /// Whose cache it is; ``Mode/private`` by default.
    public var mode: Mode
    /// Where responses are kept.
    public var store: any CacheStore
    /// The largest body stored; a longer one passes through uncached. 4 MiB by default.
    public var maximumEntryBytes: Int
    /// The longest heuristic freshness (RFC 9111 §4.2.2: a tenth of the time since
    /// `Last-Modified`); one day by default.
    public var heuristicCeiling: Duration
    /// The name the cache gives itself in `Cache-Status` (RFC 9211); `HTTPPipelineCache` by
    /// default.
    public var name: String
    /// Where `stale-while-revalidate`'s background validations go (RFC 5861 §3): usually the
    /// pipeline's transport, or a pipeline of the layers below the cache. A middleware's `next`
    /// cannot outlive its call, so without one a request inside the window is validated at once,
    /// as if the directive were absent (which the RFC allows). `nil` by default.
    public var revalidationTransport: (any HTTPTransport)?
    /// How long a request waits for an identical miss already on its way to the network (same
    /// resource, same identity) before it sends its own; 5 seconds by default. A waiter is
    /// served from the store once the first response is stored, fails as it failed, or sends its
    /// own request when it could not be stored.
    public var collapsingLimit: Duration

    /// Creates options.
    ///
    /// - Parameters:
    ///   - mode: Private (one user) or shared.
    ///   - store: Where responses are kept; a 16 MiB ``MemoryCacheStore`` by default.
    ///   - maximumEntryBytes: The largest body stored.
    ///   - heuristicCeiling: The longest heuristic freshness.
    ///   - name: The cache's name in `Cache-Status`.
    ///   - revalidationTransport: Where background validations go; none by default.
    ///   - collapsingLimit: How long a request waits for an identical miss under way.
    public init(
        mode: Mode = .private,
        store: any CacheStore = MemoryCacheStore(),
        maximumEntryBytes: Int = 4 << 20,
        heuristicCeiling: Duration = .seconds(86_400),
        name: String = "HTTPPipelineCache",
        revalidationTransport: (any HTTPTransport)? = nil,
        collapsingLimit: Duration = .seconds(5)
    ) {
        self.collapsingLimit = max(collapsingLimit, .zero)
        self.revalidationTransport = revalidationTransport
        self.mode = mode
        self.store = store
        self.maximumEntryBytes = max(maximumEntryBytes, 0)
        self.heuristicCeiling = max(heuristicCeiling, .zero)
        self.name = name
    }
}

/// What one call asks of a ``CacheMiddleware``, set on its context
/// (`HTTPRequestContext.cachePolicy`): the policies `URLRequest.CachePolicy` offers.
public enum CachePolicy: Sendable, Equatable {
    /// The protocol's rules (RFC 9111): the default.
    case useProtocol
    /// Go to the network whatever is stored (a force reload); the answer is stored as usual.
    case reloadIgnoringCache
    /// A stored response if there is one, however stale (unless it says `must-revalidate`),
    /// else the network.
    case returnCachedElseLoad
    /// A stored response if there is one (unless it is stale and says `must-revalidate`), else
    /// a `504 Gateway Timeout` made by the cache: never the network.
    case returnCachedOnly
}

/// The context key of a call's cache policy.
package enum CachePolicyKey: HTTPContextKey {
    package typealias Value = CachePolicy
}

extension HTTPRequestContext {
    /// What a ``CacheMiddleware`` does for this call; `nil` (the default) is
    /// ``CachePolicy/useProtocol``.
    public var cachePolicy: CachePolicy? {
        get { self[CachePolicyKey.self] }
        set { self[CachePolicyKey.self] = newValue }
    }
}

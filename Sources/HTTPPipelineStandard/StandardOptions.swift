public import HTTPPipeline
public import HTTPPipelineAuth
public import HTTPPipelineCache
public import HTTPPipelineCircuitBreaker
public import HTTPPipelineConcurrencyLimit
public import HTTPPipelineCookies
public import HTTPPipelineGzip
public import HTTPPipelineHeaders
public import HTTPPipelineHedging
public import HTTPPipelineLogging
public import HTTPPipelineRedaction
public import HTTPPipelineRedirect
public import HTTPPipelineRetry

/// What the standard pipeline does: each plugin's settings, or `nil` to leave it out, and your own
/// middleware at named points (``insert(_:at:)``).
public struct StandardOptions: Sendable {
    /// Where log records go, how much they hold and what they hide.
    public struct Logging: Sendable {
        /// How much each record holds.
        public var level: LogLevel
        /// Where records go.
        public var sink: any HTTPLogSink
        /// What to hide.
        public var redaction: Redaction

        /// Creates logging settings.
        ///
        /// - Parameters:
        ///   - level: How much each record holds; `LogLevel.basic` by default.
        ///   - sink: Where records go.
        ///   - redaction: What to hide; everything secret by default.
        public init(level: LogLevel = .basic, sink: any HTTPLogSink, redaction: Redaction = .default) {
            self.level = level
            self.sink = sink
            self.redaction = redaction
        }
    }

    /// Default headers added to every request; none by default.
    public var headers: [DefaultHeaders.Header]
    /// A deadline for the whole call (`TimeoutMiddleware.deadline`), just inside the outermost
    /// point: every hop, attempt and wait, and reading a streamed body, together. `nil` (none) by
    /// default; a call can change it with `HTTPRequestContext.totalTimeout`.
    public var totalTimeout: Duration?
    /// A bulkhead (`ConcurrencyLimitMiddleware`), inside the deadline and default headers,
    /// outside redirects, retry and auth: at most its limit of calls in flight, each holding its
    /// slot through its hops, attempts and waits, and taking its credential only when its turn
    /// comes (so a storm of calls with a stale token sends few of them with it). By default
    /// ``defaultConcurrencyLimit()``, a new one for each options value; `nil` for none. Made by
    /// you, so several pipelines can share one limit and you can read its counts; make it on
    /// ``clock`` for tests.
    public var concurrencyLimit: ConcurrencyLimitMiddleware?

    /// The limit the standard stack has unless told otherwise: at most
    /// ``defaultConcurrencyLimitSlots`` calls in flight, the rest waiting their turn in a queue
    /// long enough that no call is turned away (100,000), for as long as it takes.
    ///
    /// A storm of calls that meet an expired token then sends at most that many with it, where
    /// without a limit every call goes out twice; and a client with fewer calls than slots in
    /// flight never waits.
    public static func defaultConcurrencyLimit() -> ConcurrencyLimitMiddleware {
        ConcurrencyLimitMiddleware(limit: defaultConcurrencyLimitSlots, maximumQueueLength: 100_000)
    }

    /// How many calls the default limit lets through at once.
    public static let defaultConcurrencyLimitSlots = 32
    /// How redirects are followed: `RedirectPolicy.default` (at most 10 hops, credentials and
    /// cookies removed when the origin changes, https to http refused) by default; `nil` hands
    /// every 3xx to the caller. The shipped transports do not follow redirects themselves.
    public var redirects: RedirectPolicy?
    /// The retry policy; `RetryPolicy.default` by default, `nil` for none.
    public var retry: RetryPolicy?
    /// A circuit breaker (`CircuitBreakerMiddleware`), just inside retry and outside the
    /// per-attempt timeout: every attempt is judged, a cut attempt counts as a failure, and an
    /// open circuit ends the call at once (retry does not retry its error). `nil` (none) by
    /// default; make it on ``clock`` for tests.
    public var circuitBreaker: CircuitBreakerMiddleware?
    /// A timeout for each attempt (`TimeoutMiddleware.perAttempt`), just inside the breaker, until the
    /// response head; a cut attempt is retried. `nil` (none) by default; a call can change it
    /// with `HTTPRequestContext.attemptTimeout`.
    public var attemptTimeout: Duration?
    /// Where credentials come from; `nil` (no auth) by default.
    public var credentials: (any CredentialSource)?
    /// How auth recognises rejection and limits refreshes.
    public var auth: AuthOptions
    /// An auth middleware you made yourself, used instead of one built from ``credentials`` and
    /// ``auth``: keep it to call `AuthMiddleware.setCredential(_:)` on sign-in, account switch
    /// and sign-out. `nil` by default.
    public var authMiddleware: AuthMiddleware?
    /// A cookie jar (`CookieMiddleware`), just inside auth and outside the cache: every hop and
    /// attempt carries its own URL's cookies (it is inside redirects and retry), a 3xx's cookies
    /// reach the next hop, and the cache keys what it stores by the cookies a request carries.
    /// `nil` (no cookies kept) by default; keep its jar to clear it on sign-out.
    public var cookies: CookieMiddleware?
    /// An HTTP cache (`CacheMiddleware`), just inside auth and the cookies, outside hedging and logging: it
    /// keeps users apart by the credential auth attached, a hit sends nothing (nothing hedged,
    /// nothing logged), and a miss's concurrent twins wait for its answer rather than each
    /// going out. It stores decoded bodies (gzip is inside it). `nil` (none) by default; keep it
    /// to read its store or clear it on sign-out.
    public var cache: CacheMiddleware?
    /// Hedging (`HedgingMiddleware`), just inside auth and the cache and outside logging: a slow attempt gets a
    /// second copy (an idempotent request with a body that can be read again), each copy
    /// carrying the credential auth attached and logged on its own, and a slow token refresh is
    /// never mistaken for a slow answer. The concurrency limit above counts calls, so a hedged
    /// call holds one slot for all its copies. `nil` (none) by default; make it on ``clock`` for
    /// tests.
    public var hedging: HedgingMiddleware?
    /// Who sees each call's events (`HTTPObserver`): `ObserverMiddleware.call(_:)` outermost,
    /// outside every built-in layer and every inserted one, and `ObserverMiddleware.attempt()`
    /// just inside hedging, outside logging, so each attempt and each hedged copy is reported
    /// with its transfer metrics. `nil` (none) by default.
    public var observer: (any HTTPObserver)?
    /// Logging; `nil` (none) by default.
    public var logging: Logging?
    /// Response decoding; `GzipOptions.default` by default, `nil` for none.
    public var gzip: GzipOptions?
    /// The clock retry waits, auth timeouts and the timeouts above use.
    public var clock: any Clock<Duration>
    /// Your own middleware, by insertion point, each point's in the order inserted; empty by
    /// default. ``insert(_:at:)`` adds to it.
    @usableFromInline var insertions: [InsertionPoint: [any HTTPMiddleware]] = [:]

    /// Creates options; every parameter defaults as described on its property.
    ///
    /// - Parameters:
    ///   - headers: Default headers.
    ///   - totalTimeout: The call's deadline, or `nil`.
    ///   - concurrencyLimit: The bulkhead (the default limit unless given), or `nil` for none.
    ///   - redirects: The redirect policy, or `nil`.
    ///   - retry: The retry policy, or `nil`.
    ///   - circuitBreaker: The circuit breaker, or `nil`.
    ///   - attemptTimeout: Each attempt's timeout, or `nil`.
    ///   - credentials: The credential source, or `nil`.
    ///   - auth: Auth options.
    ///   - authMiddleware: Your own auth middleware, or `nil`.
    ///   - cookies: The cookie jar's middleware, or `nil`.
    ///   - cache: The HTTP cache, or `nil`.
    ///   - hedging: The hedging layer, or `nil`.
    ///   - logging: Logging settings, or `nil`.
    ///   - gzip: Decoding options, or `nil`.
    ///   - clock: The clock for waits and timeouts.
    public init(
        headers: [DefaultHeaders.Header] = [],
        totalTimeout: Duration? = nil,
        concurrencyLimit: ConcurrencyLimitMiddleware? = StandardOptions.defaultConcurrencyLimit(),
        redirects: RedirectPolicy? = .default,
        retry: RetryPolicy? = .default,
        circuitBreaker: CircuitBreakerMiddleware? = nil,
        attemptTimeout: Duration? = nil,
        credentials: (any CredentialSource)? = nil,
        auth: AuthOptions = .default,
        authMiddleware: AuthMiddleware? = nil,
        cookies: CookieMiddleware? = nil,
        cache: CacheMiddleware? = nil,
        hedging: HedgingMiddleware? = nil,
        logging: Logging? = nil,
        gzip: GzipOptions? = .default,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.headers = headers
        self.totalTimeout = totalTimeout
        self.concurrencyLimit = concurrencyLimit
        self.redirects = redirects
        self.retry = retry
        self.circuitBreaker = circuitBreaker
        self.attemptTimeout = attemptTimeout
        self.credentials = credentials
        self.auth = auth
        self.authMiddleware = authMiddleware
        self.cookies = cookies
        self.cache = cache
        self.hedging = hedging
        self.logging = logging
        self.gzip = gzip
        self.clock = clock
    }
}

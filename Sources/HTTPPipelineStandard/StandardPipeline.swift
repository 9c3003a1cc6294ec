public import HTTPPipeline
public import HTTPPipelineAuth
public import HTTPPipelineCache
public import HTTPPipelineCircuitBreaker
public import HTTPPipelineConcurrencyLimit
public import HTTPPipelineCookies
public import HTTPPipelineEvents
public import HTTPPipelineGzip
public import HTTPPipelineHeaders
public import HTTPPipelineHedging
public import HTTPPipelineLogging
public import HTTPPipelineRedirect
public import HTTPPipelineRetry
public import HTTPPipelineTimeout

/// The recommended pipeline in one call: a deadline, default headers, redirects, retry, a
/// per-attempt timeout, auth, logging and decoding, in the documented order, each configured by
/// ``StandardOptions`` or left out (both timeouts are off unless set).
///
/// ```swift
/// import HTTPPipelineHeaders
/// import HTTPPipelineLogging
/// import Testing
///
/// let client = try StandardPipeline.build(over: URLSessionTransport(), options: StandardOptions(
///     headers: [.fixed("User-Agent", "Shelf/2.3")],
///     credentials: tokenStore,
///     logging: .init(level: .basic, sink: StandardErrorLogSink())
/// ))
/// print(client)   // Pipeline(DefaultHeaders -> ConcurrencyLimitMiddleware -> RedirectMiddleware -> RetryMiddleware -> AuthMiddleware -> LoggingMiddleware -> GzipMiddleware -> URLSessionTransport)
/// #expect(client.orderingDiagnostics.isEmpty)
/// ```
///
/// ## Ordering
/// `TimeoutMiddleware.deadline → DefaultHeaders → ConcurrencyLimitMiddleware → RedirectMiddleware
/// → RetryMiddleware → CircuitBreakerMiddleware → TimeoutMiddleware.perAttempt → AuthMiddleware →
/// CookieMiddleware → CacheMiddleware → HedgingMiddleware → LoggingMiddleware → GzipMiddleware →
/// transport`, outermost first (the limit by default, ``StandardOptions/concurrencyLimit``; the
/// two timeouts, the breaker, the cookies, the cache and hedging only when set:
/// ``StandardOptions/totalTimeout``, ``StandardOptions/circuitBreaker``,
/// ``StandardOptions/attemptTimeout``, ``StandardOptions/cookies``, ``StandardOptions/cache``,
/// ``StandardOptions/hedging``). It is .NET's standard resilience order (bulkhead, total
/// timeout, retry, circuit breaker, attempt timeout) with the bulkhead moved inside the deadline,
/// so the wait for a slot counts against it: the deadline bounds the whole call, every hop,
/// attempt and wait and the body's reading, and retry inside never waits past it; the limit
/// bounds calls in flight, each holding its slot through its retries, and sits above auth so
/// queued calls take the credential when their turn comes; the breaker judges every attempt,
/// a cut attempt included, and its rejection is not retried; each hop and attempt takes its own
/// URL's cookies from the jar, and a 3xx's cookies reach the next hop; the cache sees each request with
/// its credential, so one user's responses never reach another, and a hit ends the attempt there;
/// each attempt has its own timeout, and a cut attempt is retried; hedging answers slowness inside an attempt,
/// after auth has attached the credential, so a slow refresh is not hedged with a stale token,
/// and each copy is logged; every hop and attempt carries the same headers
/// (a header the redirect policy lists is dropped when the origin changes); each hop of a
/// redirect is retried on its own, judged by its own method; each attempt re-runs auth,
/// so an attempt after a refresh carries the new token; logging sees each attempt as sent, with
/// its credential redacted, and decoded bodies; decoding works on the wire bytes. Its
/// `Pipeline.orderingDiagnostics` are empty.
///
/// Your own middleware goes at a named point of this order with ``StandardOptions/insert(_:at:)``
/// (``StandardOptions/InsertionPoint``): request signing inside auth, for example.
public enum StandardPipeline {
    /// Builds the recommended pipeline over a transport.
    ///
    /// - Parameters:
    ///   - transport: The transport at the bottom.
    ///   - options: Each plugin's settings (plugins set to `nil` are left out), and the layers
    ///     inserted at named points.
    /// - Returns: The pipeline.
    /// - Throws: `HeaderError` when a default header is not legal HTTP.
    @inlinable
    public static func build<Transport: HTTPTransport>(
        over transport: Transport,
        options: StandardOptions = StandardOptions()
    ) throws -> Pipeline<some HTTPMiddleware, Transport> {
        let deadline = options.totalTimeout.map { TimeoutMiddleware.deadline($0, clock: options.clock) }
        let headers = options.headers.isEmpty ? nil : try DefaultHeaders(options.headers)
        let redirects = options.redirects.map { RedirectMiddleware(policy: $0) }
        let retry = options.retry.map { RetryMiddleware(policy: $0, clock: options.clock) }
        let limit = options.concurrencyLimit
        let breaker = options.circuitBreaker
        let attempt = options.attemptTimeout.map { TimeoutMiddleware.perAttempt($0, clock: options.clock) }
        let auth =
            options.authMiddleware
            ?? options.credentials.map { AuthMiddleware(source: $0, options: options.auth, clock: options.clock) }
        let cookies = options.cookies
        let cache = options.cache
        let hedging = options.hedging
        let logging = options.logging.map { LoggingMiddleware(level: $0.level, sink: $0.sink, redaction: $0.redaction) }
        let gzip = options.gzip.map { GzipMiddleware($0) }
        let observed = options.observer.map { ObserverMiddleware.call($0) }
        let attempts = options.observer.map { _ in ObserverMiddleware.attempt() }
        // The plugins bind when built (`BindsWhenBuilt`): one async call per layer present and
        // none for a layer left out.
        return Pipeline(transport: transport) {
            // Two branches, chosen once when the pipeline is built: with nothing inserted, the
            // built-in layers alone; with insertions, one run-time stack. A plugin that joins the
            // stack goes in both, in the same place.
            if options.insertions.isEmpty {
                observed
                deadline
                headers
                limit
                redirects
                retry
                breaker
                attempt
                auth
                cookies
                cache
                hedging
                attempts
                logging
                gzip
            } else {
                stack(
                    observed, deadline, headers, limit, redirects, retry, breaker, attempt, auth, cookies, cache,
                    hedging, attempts, logging, gzip, inserting: options)
            }
        }
    }

    /// The built-in layers with the inserted ones at their points, outermost first, as one
    /// run-time stack.
    @usableFromInline
    static func stack(
        _ observed: ObserverMiddleware?,
        _ deadline: TimeoutMiddleware?,
        _ headers: DefaultHeaders?,
        _ limit: ConcurrencyLimitMiddleware?,
        _ redirects: RedirectMiddleware?,
        _ retry: RetryMiddleware?,
        _ breaker: CircuitBreakerMiddleware?,
        _ attempt: TimeoutMiddleware?,
        _ auth: AuthMiddleware?,
        _ cookies: CookieMiddleware?,
        _ cache: CacheMiddleware?,
        _ hedging: HedgingMiddleware?,
        _ attempts: ObserverMiddleware?,
        _ logging: LoggingMiddleware?,
        _ gzip: GzipMiddleware?,
        inserting options: StandardOptions
    ) -> MiddlewareStack {
        func inserted(_ point: StandardOptions.InsertionPoint) -> [any HTTPMiddleware] {
            options.insertions[point] ?? []
        }
        var layers: [any HTTPMiddleware] = observed.map { [$0] } ?? []
        layers += inserted(.outermost)
        if let deadline { layers.append(deadline) }
        if let headers { layers.append(headers) }
        if let limit { layers.append(limit) }
        layers += inserted(.outsideRetry)
        if let redirects { layers.append(redirects) }
        if let retry { layers.append(retry) }
        if let breaker { layers.append(breaker) }
        if let attempt { layers.append(attempt) }
        layers += inserted(.insideRetry)
        if let auth { layers.append(auth) }
        if let cookies { layers.append(cookies) }
        if let cache { layers.append(cache) }
        if let hedging { layers.append(hedging) }
        if let attempts { layers.append(attempts) }
        layers += inserted(.insideAuth)
        if let logging { layers.append(logging) }
        if let gzip { layers.append(gzip) }
        layers += inserted(.beforeTransport)
        return MiddlewareStack(layers)
    }
}

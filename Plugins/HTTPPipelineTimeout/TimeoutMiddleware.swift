public import HTTPPipeline

/// Cuts a call, or one attempt of it, that takes too long: the work in flight is cancelled and
/// an `HTTPTimeoutError` thrown, saying which limit fired.
///
/// Two kinds, told apart by where they sit:
///
/// ```swift
/// import HTTPPipelineRetry
///
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     TimeoutMiddleware.deadline(.seconds(10))     // the whole call: every attempt and wait
///     RetryMiddleware(policy: .default)
///     TimeoutMiddleware.perAttempt(.seconds(3))    // each attempt; retry may try again
/// }
/// ```
///
/// - ``deadline(_:clock:)`` bounds everything below it, and reading a streamed response body
///   too: a chunk still awaited when the deadline passes fails with the timeout error. It sets
///   `HTTPRequestContext.deadline` (tightening one set further out, never loosening it), so
///   retry inside never waits or starts an attempt past it, and any layer can read the time left.
///   Its error has the limit `HTTPTimeoutError.Limit.total`, which retry never
///   retries.
/// - ``perAttempt(_:clock:)`` bounds one pass through the layers below it, until the response
///   head arrives (the body is read after retry judged the attempt, so it is not covered: put a
///   deadline outside for that). Its error has the limit
///   `HTTPTimeoutError.Limit.attempt`, which retry's default policy retries.
///
/// A deadline whose layers below are all built-in ones that keep a cut deadline (every plugin
/// but auth and the cache) over `CurlTransport` cuts the call without a race: one timer whose
/// firing aborts the transfer, head or body, or lets a call queued for a slot go, and the same
/// timeout is thrown. Otherwise, and always for a per-attempt timeout, the layer races the rest
/// of the call in one child task of a task group (so it keeps the caller's task executor
/// preference), started at once on the caller's thread where immediate children exist (Swift 6.2
/// on Linux, macOS 26 and its peers): an answer that comes without suspending then arms no
/// timer. Either way the timer is one entry in a shared heap on `ContinuousClock`, released as
/// soon as the answer comes; on a `ManualClock` it is one of the clock's timers
/// (`pendingTimers`), so tests never sleep for real. One call can use another limit, or none,
/// through its context (``TimeoutOverride``).
///
/// ## Ordering
/// - **A deadline outside retry**, and outside redirects: it covers every attempt, every wait
///   and every hop, and retry inside reads it. Inside retry it would restart with every attempt:
///   a per-attempt timeout under another name (a diagnostic says so).
/// - **A per-attempt timeout inside retry**: each attempt gets its own limit and a cut attempt is
///   retried. Outside retry it bounds the whole call, but throws a retryable error nobody retries
///   (a diagnostic says so).
/// - **Either outside auth**: the time auth spends refreshing a token counts against the limit.
/// - **Either outside logging**: logging inside records the cut attempt as failed with
///   `CancellationError`; outside it, the record shows the timeout error, once per call.
public struct TimeoutMiddleware: HTTPMiddleware {
    /// Which limit a timeout layer enforces.
    public enum Kind: Sendable, Equatable {
        /// The whole call below the layer, response body included.
        case total
        /// One pass through the layers below, until the response head.
        case attempt
    }

    /// Which limit this layer enforces.
    public let kind: Kind
    /// The limit, unless a call's context says otherwise.
    public let limit: Duration
    let timeline: Timeline

    private init(kind: Kind, limit: Duration, clock: any Clock<Duration>) {
        self.kind = kind
        self.limit = limit
        self.timeline = Timeline(clock)
    }

    /// A deadline for the whole call below this layer, reading the response body included.
    ///
    /// - Parameters:
    ///   - limit: How long the call may take; `HTTPRequestContext.totalTimeout` overrides it.
    ///   - clock: The clock the limit is measured on; `ContinuousClock` by default.
    /// - Returns: The middleware.
    public static func deadline(_ limit: Duration, clock: any Clock<Duration> = ContinuousClock()) -> Self {
        Self(kind: .total, limit: limit, clock: clock)
    }

    /// A timeout for each pass through the layers below this one (each attempt, under retry),
    /// until the response head arrives.
    ///
    /// - Parameters:
    ///   - limit: How long an attempt may take; `HTTPRequestContext.attemptTimeout` overrides it.
    ///   - clock: The clock the limit is measured on; `ContinuousClock` by default.
    /// - Returns: The middleware.
    public static func perAttempt(_ limit: Duration, clock: any Clock<Duration> = ContinuousClock()) -> Self {
        Self(kind: .attempt, limit: limit, clock: clock)
    }

    /// `TimeoutMiddleware.deadline` or `TimeoutMiddleware.perAttempt`: the two kinds often sit
    /// in one pipeline.
    public var name: String {
        switch kind {
        case .total: "TimeoutMiddleware.deadline"
        case .attempt: "TimeoutMiddleware.perAttempt"
        }
    }

    /// Sends the request through the layers below, cutting it when the limit passes first.
    ///
    /// - Parameters:
    ///   - request: The request; a deadline layer passes it on with its context's deadline set.
    ///   - next: The rest of the pipeline.
    /// - Returns: The response; behind a deadline, a streamed body is bounded by it too.
    /// - Throws: `HTTPTimeoutError` when the limit passes first, what `next` threw,
    ///   or `CancellationError` when the caller was cancelled.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        try await intercept(request, next: next, cutsWithoutRace: false)
    }

    /// ``intercept(_:next:)``; a deadline whose layers and transport below all keep a cut
    /// deadline (`cutsWithoutRace`, known when the pipeline binds it) is cut without a race.
    @inline(__always)
    func intercept(_ request: HTTPRequest, next: HTTPNext, cutsWithoutRace: Bool) async throws -> HTTPResponse {
        switch kind {
        case .attempt:
            let limit: Duration
            switch request.context.attemptTimeout {
            case nil: limit = self.limit
            case .off?: return try await next(request)
            case .limit(let override)?: limit = override
            }
            return try await timeline.race(within: limit, orThrow: HTTPTimeoutError(.attempt, after: limit)) {
                try await next(request)
            }
        case .total:
            let limit: Duration
            switch request.context.totalTimeout {
            case nil: limit = self.limit
            case .off?: return try await next(request)
            case .limit(let override)?: limit = override
            }
            var request = request
            let outer = request.context.deadline
            let deadline = timeline.deadline(after: limit).earlier(outer)
            request.context.deadline = deadline
            // Without a deadline outside, this one's limit is the time left: no clock read.
            let remaining = outer == nil ? limit : deadline.remaining
            if cutsWithoutRace {
                return try await cutting(
                    request, deadline: deadline, remaining: remaining, outer: outer?.cut, next: next)
            }
            return try await withinDeadline(request, deadline: deadline, remaining: remaining, next: next)
        }
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module: a
/// deadline with nothing below it but layers and a transport that keep a cut deadline is cut
/// without racing the call.
extension TimeoutMiddleware: BindsWhenBuilt {
    @usableFromInline
    package func bound(to next: @escaping HTTPNext) -> HTTPNext {
        let cuts = kind == .total && DeadlineBinding.current?.kept == true
        return { request in try await intercept(request, next: next, cutsWithoutRace: cuts) }
    }
}

/// Both kinds wait for nothing but the layers below (the per-attempt race's child is cut with
/// them).
extension TimeoutMiddleware: KeepsDeadline {}

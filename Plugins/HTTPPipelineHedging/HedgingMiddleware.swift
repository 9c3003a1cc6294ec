public import HTTPPipeline

/// Cuts tail latency: when a request has no response within a delay, sends another copy, takes
/// the first acceptable response and cancels the rest.
///
/// ```swift
/// import HTTPPipelineLogging
/// import HTTPPipelineRetry
///
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     RetryMiddleware(policy: .default)                        // failures, with backoff
///     HedgingMiddleware(policy: .after(.milliseconds(50)))     // slowness, with a second copy
///     LoggingMiddleware(level: .basic, sink: sink)             // every copy, the losers too
/// }
/// ```
///
/// The first attempt starts at once; each time ``HedgingPolicy/delay`` passes without a winner,
/// another starts, up to ``HedgingPolicy/maximumAttempts`` started in all (an attempt that fails
/// is not replaced). An attempt wins
/// at its response head, when the policy accepts it (by default anything but a 408, a 429, a 5xx, a
/// transient transport error or a timeout from inside): its response is returned and its body
/// streams to the caller; every other attempt is cancelled (a transport sees the cancellation,
/// and a response that already came is dropped, which cancels its body's transfer) and awaited
/// before the call returns. Nothing outlives the call: the attempts are child tasks of one task
/// group, and cancelling the caller cancels them all. (On a clock other than `ContinuousClock`
/// and `ManualClock`, the delay is a task sleeping on that clock, cancelled when the call ends but
/// not awaited.)
///
/// When no attempt is acceptable, the call ends as soon as none is in flight: with the last
/// response that came (a 503, whose `Retry-After` a retry layer outside can read), or the last
/// error if no response came. Hedging does not start a new attempt because one failed fast: it
/// answers slowness; failures are retry's job, with its backoff.
///
/// Only requests safe to send twice are hedged (``HedgingPolicy/mayHedge(_:)``): an idempotent
/// method, or a policy that opts other methods in, and a body that can be read again
/// (`HTTPRequest.isReplayable`). Any other request passes through and is sent once.
///
/// A budget (``HedgingBudget``, 10 % of calls by default) bounds the extra load: when it is
/// spent, a slow call waits for its first attempt. The delay is timed on the injected clock
/// with the core's timers (one heap entry per hedged call on `ContinuousClock`, no sleeping
/// task); on a `ManualClock` it is one of the clock's `pendingTimers`. Each attempt's request
/// carries its number in `HTTPRequestContext.hedgeAttempt` for the layers inside; one call can
/// use another policy, or none, through its context (``HedgingOverride``).
///
/// ## Ordering
/// - **Inside retry**: retry handles failures with backoff, hedging handles slowness within each
///   attempt. Outside retry, a retry sequence's backoff wait looks like a slow response, so a
///   hedge is sent during the wait the server asked for (a diagnostic says so). Hedging does not
///   replace retry: it never sends again because an attempt failed.
/// - **Inside auth**: after a 401, auth refreshes once and sends the call again, hedged again.
///   Outside auth, a slow refresh looks like a slow response: a hedge goes out with the stale
///   token, meets the same 401, and is sent again after the refresh (a diagnostic says so).
/// - **Inside a deadline**, which then bounds every attempt together; inside hedging a deadline
///   restarts with each attempt (a diagnostic says so).
/// - **Inside a per-attempt timeout** (the standard order: retry, per-attempt timeout, auth,
///   hedging): the timeout bounds the hedged attempt as one unit, copies included, and retry
///   retries it when cut. Inside hedging, each copy gets its own limit from its own start and a
///   cut copy loses while the others go on. Both are sound; they answer differently.
/// - **Logging inside** records every attempt, the cancelled losers included; outside, one
///   record per call.
public struct HedgingMiddleware: HTTPMiddleware {
    /// When to hedge and which answers win.
    public let policy: HedgingPolicy
    let budget: HedgingBudget?
    let timeline: Timeline

    /// Creates the middleware with a fresh default budget (10 % of calls per 10 seconds)
    /// measured on `clock`.
    ///
    /// - Parameters:
    ///   - policy: When to hedge and which answers win.
    ///   - clock: The clock the delay and the default budget's window are measured on;
    ///     `ContinuousClock` by default.
    public init(policy: HedgingPolicy, clock: any Clock<Duration> = ContinuousClock()) {
        self.init(policy: policy, budget: Self.defaultBudget(clock: clock), clock: clock)
    }

    /// Creates the middleware with a budget of your choice, which may be shared, or none.
    ///
    /// - Parameters:
    ///   - policy: When to hedge and which answers win.
    ///   - budget: The budget hedges are taken from; `nil` for no limit beyond the policy's
    ///     attempts.
    ///   - clock: The clock the delay is measured on; `ContinuousClock` by default.
    public init(policy: HedgingPolicy, budget: HedgingBudget?, clock: any Clock<Duration> = ContinuousClock()) {
        self.policy = policy
        self.budget = budget
        self.timeline = Timeline(clock)
    }

    /// A budget with the default numbers (10 % of calls, no minimum, a 10-second window).
    ///
    /// - Parameter clock: The clock the window is measured on.
    /// - Returns: A new budget.
    public static func defaultBudget(clock: any Clock<Duration> = ContinuousClock()) -> HedgingBudget? {
        try? HedgingBudget(clock: clock)
    }

    /// Sends the request, hedging it when it is slow and safe to send twice.
    ///
    /// - Parameters:
    ///   - request: The request; each attempt carries its number in its context.
    ///   - next: The rest of the pipeline, called once per attempt, from child tasks.
    /// - Returns: The first acceptable response, or the last response when none was.
    /// - Throws: The error an acceptable attempt threw, the last error when no attempt was
    ///   acceptable and none answered, or `CancellationError` when the caller was cancelled.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let policy: HedgingPolicy
        switch request.context.hedging {
        case nil: policy = self.policy
        case .off?: return try await next(request)
        case .policy(let override)?: policy = override
        }
        guard policy.mayHedge(request) else { return try await next(request) }
        budget?.deposit()
        return try await hedged(request, policy: policy, next: next)
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module.
extension HedgingMiddleware: BindsWhenBuilt {}

/// Keeps a cut deadline: it waits for its copies, each cut by the layers below, and for its own timer.
extension HedgingMiddleware: KeepsDeadline {}

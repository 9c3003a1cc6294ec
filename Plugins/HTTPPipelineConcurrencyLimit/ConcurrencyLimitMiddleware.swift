public import HTTPPipeline

/// A bulkhead: at most `limit` requests in flight below this layer; the calls beyond it wait in
/// a first-in, first-out queue of bounded length, for a bounded time.
///
/// It counts calls that pass it: a layer below that sends more than one request per call at once
/// (hedging, in the standard stack) puts up to its attempts on the wire per slot. Put a second
/// limit inside hedging to bound the copies too.
///
/// ```swift
/// import HTTPPipelineAuth
///
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     ConcurrencyLimitMiddleware(limit: 8, maximumQueueLength: 1_000, queueTimeout: .seconds(10))
///     AuthMiddleware(source: tokenStore)
/// }
/// ```
///
/// A call that finds a slot free and nobody waiting goes straight through (one lock, nothing
/// allocated). Otherwise it waits its turn; it is turned away with ``ConcurrencyLimitError``
/// when the queue already holds `maximumQueueLength` calls, or when `queueTimeout` passes first
/// (measured on the injected clock, one timer per waiter in the core's shared timer heap). A
/// cancelled waiter leaves the queue at once with `CancellationError`; nothing was sent and it
/// held no slot. One call can jump the queue or bypass the limit through its context
/// (``ConcurrencyLimitOverride``).
///
/// **A slot is held until the response is done with**: given back when the layers below throw,
/// at once when the response body is buffered, and for a streamed body when it is read to its
/// end, a read fails, or the body is dropped unread. A caller that keeps a streamed body
/// unread holds its slot: a bulkhead counts the download too, not only the wait for the head.
/// Every slot is given back exactly once, whatever happens.
///
/// All copies of one middleware value share their slots and queue; two values made separately
/// are two separate limits.
///
/// ## Ordering
/// - **Outside auth**: the calls queued behind the limit take their credential when their turn
///   comes, so after the first 401 and the single refresh they carry the new token. Inside auth,
///   every queued call carries the credential it was given before it waited, and a storm of
///   calls with a stale token sends each of them twice (a diagnostic says so).
/// - **Inside the deadline** (`TimeoutMiddleware.deadline`): the wait for a slot counts against
///   the call's deadline, and a call whose deadline passes leaves the queue. Outside it, the
///   deadline starts only once a slot is held (a diagnostic says so).
/// - **Outside retry** (recommended): the limit counts calls, and a call keeps its slot through
///   its retries and their waits, so retries never add load beyond the limit. Inside retry each
///   attempt queues again, behind calls that came later, and the waits between attempts hold no
///   slot: allowed, for a limit on attempts rather than calls.
/// - **Outside logging**: a call turned away was never sent, and logging inside records nothing
///   for it.
public struct ConcurrencyLimitMiddleware: HTTPMiddleware {
    let limiter: ConcurrencyLimiter

    /// Creates the layer and its slots.
    ///
    /// - Parameters:
    ///   - limit: The most requests in flight below the layer; 1 or more (less is taken as 1).
    ///   - maximumQueueLength: The most calls waiting for a slot; 0 turns a call away at once
    ///     when every slot is taken. 1,000 by default; a negative number is taken as 0.
    ///   - queueTimeout: How long a call may wait for a slot; `nil` (the default) for as long as
    ///     it takes (or until the caller is cancelled, or a deadline outside passes).
    ///   - clock: The clock the queue timeout is measured on; `ContinuousClock` by default.
    public init(
        limit: Int,
        maximumQueueLength: Int = 1_000,
        queueTimeout: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        limiter = ConcurrencyLimiter(
            limit: max(limit, 1), maximumQueueLength: max(maximumQueueLength, 0), queueTimeout: queueTimeout,
            timeline: Timeline(clock))
    }

    /// The most requests in flight below the layer.
    public var limit: Int { limiter.limit }

    /// How many calls hold a slot now (a streamed body not yet read to its end included).
    public var inFlightCount: Int { limiter.inFlight }

    /// How many calls wait for a slot now.
    public var queuedCount: Int { limiter.queued }

    /// Sends the request once a slot is held, and gives the slot back when the response is done.
    ///
    /// - Parameters:
    ///   - request: The request, passed on unchanged.
    ///   - next: The rest of the pipeline.
    /// - Returns: The response; a streamed body holds the slot until it is read to its end.
    /// - Throws: ``ConcurrencyLimitError`` when the call is turned away, `CancellationError`
    ///   when the caller is cancelled while waiting, or what `next` threw.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let override = request.context.concurrencyLimit
        if override == .bypass { return try await next(request) }
        // The fast path takes its slot without an `await`: one lock.
        if case .mustWait(let id) = limiter.enter() {
            request.report(.limiterQueued)
            let start = request.context.observation == nil ? .zero : MonotonicTime.now()
            // A deadline cut without a race ends the wait as cancelling the caller would.
            request.context.deadline?.cut?.onCut { [limiter] in limiter.abandon(id) }
            try await limiter.waitForSlot(id, priority: override == .priority)
            if request.context.observation != nil {
                request.report(.limiterAdmitted, duration: MonotonicTime.now() - start)
            }
            // A slot handed over just as the caller was cancelled: given back, nothing sent.
            if Task.isCancelled {
                limiter.release()
                throw CancellationError()
            }
        }
        let response: HTTPResponse
        do {
            response = try await next(request)
        } catch {
            limiter.release()
            throw error
        }
        return limiter.holding(response)
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module.
extension ConcurrencyLimitMiddleware: BindsWhenBuilt {}

/// Keeps a cut deadline: it ends a wait for a slot when the deadline is cut.
extension ConcurrencyLimitMiddleware: KeepsDeadline {}

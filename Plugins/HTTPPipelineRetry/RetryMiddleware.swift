public import Foundation
public import HTTPPipeline

/// Retries transient failures with exponential backoff and jitter, within an attempt cap, a
/// deadline and a shared budget; honours `Retry-After`; never replays a request that is not
/// safe to send twice.
///
/// ```swift
/// import HTTPPipelineHeaders
/// import HTTPPipelineLogging
///
/// let pipeline = try Pipeline(transport: URLSessionTransport()) {
///     try DefaultHeaders([.fixed("User-Agent", "Shelf/2.3")])
///     RetryMiddleware(policy: .default)
///     LoggingMiddleware(level: .basic, sink: sink)   // logs every attempt, with its number
/// }
/// ```
///
/// When attempts run out on a retryable status the last response is returned (a 503 is a
/// response, not an error); on a transport error the last error is thrown. Each attempt runs with
/// its number (1, 2, …) in the request's context (`HTTPRequestContext.attempt`) for the layers inside. A
/// cancelled task stops waiting at once with `CancellationError`, and no attempt starts after
/// cancellation. Waits are slept on the injected clock, so tests never sleep for real.
///
/// The policy's ``RetryPolicy/deadline`` bounds the retries, attempts in flight included: from
/// the first wait on, the rest of the call runs in one race against it, and when it passes
/// during an attempt, the attempt is cancelled and `HTTPTimeoutError` (limit `.total`) thrown.
/// The first attempt runs unraced, so the happy path pays nothing for it: to bound the first
/// attempt too, put `TimeoutMiddleware.deadline` outside (or `.perAttempt` inside). A deadline set by a layer outside (`HTTPRequestContext.deadline`, from
/// `TimeoutMiddleware.deadline`) is kept too: no wait that would end past it starts, and the
/// last result is returned instead. A per-attempt timeout inside (`HTTPTimeoutError`, limit
/// `.attempt`) is retried like a transient transport error.
///
/// One call can use another policy, or none, through its context:
///
/// ```swift
/// var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/payments")!)
/// request.context.retryPolicy = RetryPolicy.none   // this call is sent once, whatever fails
/// ```
///
/// ## Ordering
/// - **Outside auth**: every attempt runs auth again, so an attempt made after the credential
///   changed carries the new one. Inside auth, every attempt carries the credential attached at
///   the start (a plain 401 is still recovered, by auth replaying the whole call once).
/// - **Outside logging** to log every attempt with its number; inside logging, one record per call.
/// - **Inside default headers** so every attempt carries the same computed headers (one request
///   ID per call); outside them, each attempt recomputes them.
/// - **Outside gzip decoding** (recommended): a corrupt body is a `GzipError`, which is not
///   retried, even on a 503. Inside decoding, retry judges the status before the body is decoded,
///   so a 503 with a corrupt body is retried.
public struct RetryMiddleware: HTTPMiddleware {
    /// What to retry and how long to wait.
    public let policy: RetryPolicy
    let budget: RetryBudget?
    let timeline: Timeline
    let random: RandomSource
    let now: @Sendable () -> Date

    /// Creates the middleware with a fresh default budget (20 % of first attempts plus 10 retries
    /// per 10 seconds) measured on `clock`.
    ///
    /// - Parameters:
    ///   - policy: What to retry and how long to wait; ``RetryPolicy/default`` by default.
    ///   - clock: The clock waits are slept on, the deadline is measured with, and the default
    ///     budget's window is measured on.
    ///   - random: The source of jitter.
    ///   - now: The wall clock, for `Retry-After` dates when a response has no `Date` header.
    public init(
        policy: RetryPolicy = .default,
        clock: any Clock<Duration> = ContinuousClock(),
        random: RandomSource = .system,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(policy: policy, budget: Self.defaultBudget(clock: clock), clock: clock, random: random, now: now)
    }

    /// Creates the middleware with a budget of your choice, which may be shared.
    ///
    /// The budget measures its window on its own clock (see ``RetryBudget``), whatever `clock`
    /// is: middleware sharing a budget may be created at different times and on different clocks.
    ///
    /// - Parameters:
    ///   - policy: What to retry and how long to wait; ``RetryPolicy/default`` by default.
    ///   - budget: The retry budget this middleware (and its copies) spend from; `nil` for none.
    ///   - clock: The clock waits are slept on and the deadline is measured with.
    ///   - random: The source of jitter.
    ///   - now: The wall clock, for `Retry-After` dates when a response has no `Date` header.
    public init(
        policy: RetryPolicy = .default,
        budget: RetryBudget?,
        clock: any Clock<Duration> = ContinuousClock(),
        random: RandomSource = .system,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.policy = policy
        self.budget = budget
        self.timeline = Timeline(clock)
        self.random = random
        self.now = now
    }

    /// A budget with the default numbers (20 % of first attempts plus 10 per 10 seconds).
    ///
    /// - Parameter clock: The clock the budget's window is measured on; `ContinuousClock` by
    ///   default.
    /// - Returns: A new budget.
    public static func defaultBudget(clock: any Clock<Duration> = ContinuousClock()) -> RetryBudget? {
        try? RetryBudget(clock: clock)
    }

    /// Sends the request, retrying as the policy allows.
    ///
    /// - Parameters:
    ///   - request: The request; an `Idempotency-Key` is added first when the policy says so.
    ///   - next: The rest of the pipeline, called once per attempt.
    /// - Returns: The first response not worth retrying, or the last one.
    /// - Throws: The last attempt's error when it is not worth retrying or attempts ran out,
    ///   `HTTPTimeoutError` (limit `.total`) when the policy's deadline passes during an attempt,
    ///   or `CancellationError` when the task is cancelled.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let policy = request.context.retryPolicy ?? self.policy
        let request = preparing(request, policy: policy)
        let start = timeline.elapsed
        budget?.deposit()
        try Task.checkCancellation()
        // The first attempt runs here, unraced: the happy path pays nothing for the deadline.
        var result = await attempt(1, of: request, next: next)
        guard let delay = delayBeforeRetry(after: result, request: request, policy: policy, start: start) else {
            return try result.get()
        }
        // From the first wait on, one race bounds the rest of the call by the policy's deadline:
        // an attempt still in flight when it passes is cancelled. (Read again after the decision:
        // with no wait left, the last result stands rather than a timeout.)
        let left = policy.deadline - (timeline.elapsed - start)
        guard left > .zero else { return try result.get() }
        result = .failure(CancellationError())  // let the given-up response go before the wait
        return try await timeline.race(within: left, orThrow: HTTPTimeoutError(.total, after: policy.deadline)) {
            try await retrying(request, policy: policy, start: start, firstDelay: delay, next: next)
        }
    }

    /// Waits `firstDelay`, then makes attempts 2, 3, … with their waits between them.
    private func retrying(
        _ request: HTTPRequest, policy: RetryPolicy, start: Duration, firstDelay: Duration, next: HTTPNext
    ) async throws -> HTTPResponse {
        var delay = firstDelay
        var number = 1
        while true {
            try await timeline.sleep(for: delay)
            number += 1
            try Task.checkCancellation()
            let result = await attempt(number, of: request, next: next)
            guard
                let next = delayBeforeRetry(
                    after: result, request: request, policy: policy, retry: number, previous: delay, start: start)
            else { return try result.get() }
            delay = next
        }
    }

    /// One attempt, its number in the request's context.
    @inline(__always)
    private func attempt(_ number: Int, of request: HTTPRequest, next: HTTPNext) async -> Result<
        HTTPResponse, any Error
    > {
        do {
            var attempt = request
            attempt.context.attempt = number
            return .success(try await next(attempt))
        } catch {
            return .failure(error)
        }
    }

    /// The wait after the first attempt, or `nil` when there must be none.
    private func delayBeforeRetry(
        after result: Result<HTTPResponse, any Error>, request: HTTPRequest, policy: RetryPolicy, start: Duration
    ) -> Duration? {
        guard policy.maximumAttempts > 1 else { return nil }
        return delayBeforeRetry(after: result, request: request, policy: policy, retry: 1, previous: nil, start: start)
    }

    /// The wait before another attempt, or `nil` when there must be none.
    private func delayBeforeRetry(
        after result: Result<HTTPResponse, any Error>,
        request: HTTPRequest,
        policy: RetryPolicy,
        retry: Int,
        previous: Duration?,
        start: Duration
    ) -> Duration? {
        let outcome: RetryPolicy.Outcome =
            switch result {
            case .success(let response): .response(response.head)
            case .failure(let error): .failure(error)
            }
        guard retry < policy.maximumAttempts, policy.shouldRetry(outcome, for: request) else { return nil }
        var delay = policy.backoff.delay(beforeRetry: retry, previous: previous, random: random)
        if case .response(let response) = outcome, let retryAfter = policy.retryAfter(response, now: now()) {
            guard case .delay(let asked) = retryAfter, asked <= policy.maximumDelay else { return nil }
            delay = max(delay, asked)
        }
        guard timeline.elapsed - start + delay < policy.deadline else { return nil }
        // The call's deadline, set by a layer outside: no wait, and so no attempt, past it.
        if let deadline = request.context.deadline, delay >= deadline.remaining { return nil }
        guard budget?.withdraw() ?? true else { return nil }
        if request.context.observation != nil { report(delay, after: outcome, attempt: retry, of: request) }
        return delay
    }

    /// Tells the call's observer that attempt `number`'s `outcome` is retried after `delay`.
    private func report(
        _ delay: Duration, after outcome: RetryPolicy.Outcome, attempt number: Int, of request: HTTPRequest
    ) {
        var attempt = request
        attempt.context.attempt = number
        switch outcome {
        case .response(let head):
            attempt.report(.retryScheduled, status: head.status, delay: delay, detail: "status \(head.status.code)")
        case .failure(let error):
            attempt.report(
                .retryScheduled, error: error, delay: delay, detail: error is HTTPTimeoutError ? "timeout" : "error")
        }
    }

    /// The request as every attempt sends it: with an `Idempotency-Key` when the policy adds one
    /// to POST and PATCH requests that lack it.
    private func preparing(_ request: HTTPRequest, policy: RetryPolicy) -> HTTPRequest {
        guard policy.addsIdempotencyKey,
            request.fields["Idempotency-Key"] == nil,
            !policy.idempotentMethods.contains(request.method.rawValue)
        else { return request }
        var keyed = request
        keyed.fields["Idempotency-Key"] = UUID().uuidString
        return keyed
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module.
extension RetryMiddleware: BindsWhenBuilt {}

/// Keeps a cut deadline: it never waits past the deadline between attempts (its own race bounds only the retries it sends).
extension RetryMiddleware: KeepsDeadline {}

import HTTPPipeline

extension HedgingMiddleware {
    /// Sends `request` as a first attempt, then another each time `policy.delay` passes without
    /// a winner (up to the policy's maximum and while the budget allows), and returns the first
    /// acceptable outcome. Every attempt is a child task of one task group: the losers are
    /// cancelled and awaited before this returns.
    func hedged(_ request: HTTPRequest, policy: HedgingPolicy, next: HTTPNext) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let round = HedgeRound()
        return try await withoutActuallyEscaping(next) { next in
            try await withThrowingTaskGroup(of: Void.self) { group in
                var started = 0
                var inFlight = 0
                func start() {
                    started += 1
                    inFlight += 1
                    let number = started
                    if number > 1 { request.report(.hedgeSent, delay: policy.delay, detail: "copy \(number)") }
                    var numbered = request
                    numbered.context.hedgeAttempt = number
                    let attempt = numbered
                    let operation: @Sendable () async -> Void = {
                        let result: Result<HTTPResponse, any Error>
                        do { result = .success(try await next(attempt)) } catch { result = .failure(error) }
                        round.deliver(.ended(number: number, result: result))
                    }
                    // At once on this thread where the platform allows (as a timeout's race does):
                    // an answer that comes without suspending is queued before any timer is armed.
                    #if compiler(>=6.2)
                    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                        group.addImmediateTask(operation: operation)
                        return
                    }
                    #endif
                    group.addTask(operation: operation)
                }
                start()
                // A deadline outside that ends before the delay leaves no time for a hedge.
                var mayHedge = request.context.deadline.map { $0.remaining > policy.delay } ?? true
                var disarm: (() -> Void)?
                defer { disarm?() }
                var fallback: Result<HTTPResponse, any Error>?
                while true {
                    let event: HedgeRound.Event
                    if let ready = round.poll() {
                        event = ready
                    } else {
                        if disarm == nil, mayHedge, started < policy.maximumAttempts {
                            disarm = timeline.armTimer(after: policy.delay) { round.deliver(.timerFired) }
                        }
                        event = await round.next()
                    }
                    switch event {
                    case .cancelled:
                        group.cancelAll()
                        throw CancellationError()
                    case .timerFired:
                        disarm = nil
                        // The caller may have been cancelled as the timer fired: no hedge then.
                        if Task.isCancelled {
                            group.cancelAll()
                            throw CancellationError()
                        }
                        if budget?.withdraw() ?? true {
                            start()
                        } else {
                            mayHedge = false
                        }
                    case .ended(let number, let result):
                        inFlight -= 1
                        if policy.accepts(result.map(\.head)) {
                            // A copy ended by a cut deadline (its cancellation) won nothing.
                            if started > 1, !Self.isCancellation(result) {
                                request.report(.hedgeWon, detail: "copy \(number)")
                            }
                            group.cancelAll()
                            return try result.get()
                        }
                        // Not acceptable: wait for the others, or end with the best so far.
                        let kept = Self.better(fallback, result)
                        guard inFlight == 0 else {
                            fallback = kept
                            continue
                        }
                        return try kept.get()
                    }
                }
            }
        }
    }

    /// Whether `result` is a copy's cancellation.
    static func isCancellation(_ result: Result<HTTPResponse, any Error>) -> Bool {
        if case .failure(let error) = result { return error is CancellationError }
        return false
    }

    /// What the call returns when no attempt is acceptable: the last response, else the last error.
    /// A response (a 503 with its `Retry-After`) tells a retry layer outside more than an error.
    static func better(
        _ kept: Result<HTTPResponse, any Error>?, _ new: Result<HTTPResponse, any Error>
    ) -> Result<HTTPResponse, any Error> {
        if case .success = kept, case .failure = new { return kept ?? new }
        return new
    }
}

package import Foundation

extension Timeline {
    /// Runs `operation` in a child task and returns what it returns, unless `limit` passes on this
    /// timeline's clock first: then the operation is cancelled, waited for, and `error` thrown.
    ///
    /// Structured: the child belongs to a task group, so it is awaited before the call returns,
    /// whichever finishes first, the caller's cancellation reaches it, and it keeps the caller's
    /// task executor preference. Built with Swift 6.2 or later on a platform that has immediate
    /// children (Linux; macOS 26 and its peers), the child starts at once on the caller's thread,
    /// so an operation that completes without suspending arms no timer at all; elsewhere it is an
    /// ordinary child task. Otherwise the caller waits for whichever comes first, the operation
    /// or the timer, exactly once:
    /// - on `ContinuousClock`, the timer is a deadline in the shared ``DeadlineScheduler``
    ///   (a lock and a heap insertion; cancelled, it is released at once);
    /// - on a clock with timers of its own (``TimerScheduling``, such as `ManualClock`), one
    ///   of those, apart from its sleepers;
    /// - on any other clock, a task sleeping on it, cancelled when the race ends.
    ///
    /// A caller cancelled before the race starts gets `CancellationError` and nothing starts; one
    /// cancelled during the race gets it once the operation has ended.
    ///
    /// - Parameters:
    ///   - limit: How long the operation may take; zero or less throws `error` without starting it.
    ///   - error: What to throw when the limit passes first.
    ///   - operation: The work, typically a middleware's `next(request)`.
    /// - Returns: What the operation returned.
    /// - Throws: What the operation threw, `error`, or `CancellationError`.
    package func race(
        within limit: Duration,
        orThrow error: HTTPTimeoutError,
        _ operation: @Sendable () async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        let value = try await racing(within: limit, orThrow: error) { .response(try await operation()) }
        guard case .response(let response) = value else { preconditionFailure("a response race returned a chunk") }
        return response
    }

    /// Races the read of one body chunk, as ``race(within:orThrow:_:)`` races a response.
    package func race(
        within limit: Duration,
        orThrow error: HTTPTimeoutError,
        _ operation: @Sendable () async throws -> Data?
    ) async throws -> Data? {
        let value = try await racing(within: limit, orThrow: error) { .chunk(try await operation()) }
        guard case .chunk(let chunk) = value else { preconditionFailure("a chunk race returned a response") }
        return chunk
    }

    // Not generic, and neither is `Race`: generic code called across modules, or a generic class
    // allocated, looks its metadata up at run time on every call (~1 µs a call, measured).
    private func racing(
        within limit: Duration,
        orThrow error: HTTPTimeoutError,
        _ operation: @Sendable () async throws -> RaceValue
    ) async throws -> RaceValue {
        try Task.checkCancellation()
        guard limit > .zero else { throw error }
        let race = Race(error: error)
        // The operation is a child of a task group, so it keeps the caller's task executor
        // preference (an unstructured task would not: each resumption of it would wake a thread
        // of the global pool); the group awaits it before the race returns.
        let outcome = await withoutActuallyEscaping(operation) { operation in
            await withTaskGroup(of: Void.self) { group in
                race.start(operation, in: &group)
                if let done = race.decided { return done }
                let disarm = arm(race, after: limit)
                let outcome = await race.outcome()
                disarm()
                group.cancelAll()
                return outcome
            }
        }
        return try outcome.get()
    }

    /// Arms `timer` to fire `limit` from now on this timeline's clock; returns what disarms it.
    package func arm(_ timer: ScheduledDeadline, after limit: Duration) -> @Sendable () -> Void {
        switch timers {
        case .continuous:
            DeadlineScheduler.shared.schedule(timer, after: limit)
            return { DeadlineScheduler.shared.cancel(timer) }
        case .scheduling(let clock):
            let id = clock.scheduleTimer(after: limit) { timer.fire() }
            return { clock.cancelTimer(id) }
        case .sleeping:
            let sleeper = Task { [self] in
                do { try await sleep(for: limit) } catch { return }
                timer.fire()
            }
            return { sleeper.cancel() }
        }
    }
}

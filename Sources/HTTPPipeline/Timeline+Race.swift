extension Timeline {
    /// Runs `operation` in a child task and returns what it returns, unless `limit` passes on this
    /// timeline's clock first: then the operation is cancelled, waited for, and `error` thrown.
    ///
    /// Structured: nothing outlives the call, whichever finishes first. The operation starts at
    /// once on the caller's thread (an immediate child task), so an operation that completes
    /// without suspending arms no timer at all. Otherwise the caller waits for whichever comes
    /// first, the operation or the timer, exactly once:
    /// - on `ContinuousClock`, the timer is a deadline in the shared ``DeadlineScheduler``
    ///   (a lock and a heap insertion; cancelled, it is released at once);
    /// - on a clock with timers of its own (``TimerScheduling``, such as `ManualClock`), one
    ///   of those, apart from its sleepers;
    /// - on any other clock, a second child task sleeping on it.
    ///
    /// A cancelled caller gets `CancellationError` once the operation has ended.
    ///
    /// - Parameters:
    ///   - limit: How long the operation may take; zero or less throws `error` without starting it.
    ///   - error: What to throw when the limit passes first.
    ///   - operation: The work, typically a middleware's `next(request)`.
    /// - Returns: What the operation returned.
    /// - Throws: What the operation threw, `error`, or `CancellationError`.
    package func race<T: Sendable>(
        within limit: Duration,
        orThrow error: any Error,
        _ operation: @Sendable () async throws -> T
    ) async throws -> T {
        guard limit > .zero else { throw error }
        let race = Race<T>(error: error)
        let outcome = await withoutActuallyEscaping(operation) { operation in
            await withTaskGroup(of: Void.self, returning: Result<T, any Error>.self) { group in
                let child: @Sendable () async -> Void = {
                    do {
                        race.resolve(.success(try await operation()))
                    } catch {
                        race.resolve(.failure(error))
                    }
                }
                if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                    group.addImmediateTask(operation: child)
                } else {
                    group.addTask(operation: child)
                }
                if let done = race.decided { return done }
                let disarm = arm(race, after: limit, in: &group)
                let outcome = await race.outcome()
                disarm()
                group.cancelAll()
                return outcome
            }
        }
        return try outcome.get()
    }

    /// Arms the race's timer; returns what disarms it.
    private func arm<T: Sendable>(
        _ race: Race<T>, after limit: Duration, in group: inout TaskGroup<Void>
    ) -> () -> Void {
        switch timers {
        case .continuous:
            DeadlineScheduler.shared.schedule(race, after: limit)
            return { DeadlineScheduler.shared.cancel(race) }
        case .scheduling(let clock):
            let id = clock.scheduleTimer(after: limit) { race.fire() }
            return { clock.cancelTimer(id) }
        case .sleeping:
            group.addTask { [self] in
                do { try await sleep(for: limit) } catch { return }
                race.fire()
            }
            return {}
        }
    }
}

/// One race: the outcome decided first, by the operation, the timer or the caller's
/// cancellation, and the caller waiting for it. Resumed exactly once, under the lock.
///
/// Sendable as its superclass is (`@unchecked`): besides what the superclass guards, it stores
/// only a constant error and `state`, a `Locked`.
final class Race<T: Sendable>: ScheduledDeadline, @unchecked Sendable {
    private struct State: Sendable {
        var settled: Result<T, any Error>?
        var waiting: UnsafeContinuation<Result<T, any Error>, Never>?
    }

    private let error: any Error
    private let state = Locked(State())

    init(error: any Error) {
        self.error = error
        super.init()
    }

    /// The timer fired: the race ends with the error, unless something came first.
    override func fire() {
        resolve(.failure(error))
    }

    /// The outcome, if one was decided.
    var decided: Result<T, any Error>? { state.withLock { $0.settled } }

    /// Decides the outcome, the first time only; later calls do nothing.
    func resolve(_ outcome: Result<T, any Error>) {
        let waiting = state.withLock { state -> UnsafeContinuation<Result<T, any Error>, Never>? in
            guard state.settled == nil else { return nil }
            state.settled = outcome
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: outcome)
    }

    /// Waits for the outcome; the caller's cancellation decides it as `CancellationError`.
    func outcome() async -> Result<T, any Error> {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, any Error>, Never>) in
                let settled = state.withLock { state -> Result<T, any Error>? in
                    if let settled = state.settled { return settled }
                    state.waiting = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        } onCancel: {
            resolve(.failure(CancellationError()))
        }
    }
}

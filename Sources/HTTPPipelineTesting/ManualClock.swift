import HTTPPipeline

/// A clock that stands still until a test moves it.
///
/// Code under test sleeps on it as on any `Clock`; a sleeper wakes only when the test calls
/// ``advance(by:)`` past its deadline, so backoff and timeout tests run instantly and exactly:
///
/// ```swift
/// import Testing
///
/// let clock = ManualClock()
/// let call = Task { try await pipeline.send(request) }   // retry sleeps on `clock`
/// await clock.waitForSleepers(1)
/// #expect(clock.pendingDeadlines == [clock.now.advanced(by: .seconds(1))])
/// clock.advance(by: .seconds(1))
/// ```
///
/// A cancelled sleeper throws `CancellationError` at once, as `Task.sleep` does.
///
/// Timeouts (`TimeoutMiddleware`, retry's deadline) arm *timers* on the clock, not sleepers:
/// ``pendingTimers`` and ``waitForTimers(_:)`` see them, ``pendingDeadlines`` and
/// ``waitForSleepers(_:)`` do not, and ``advance(by:)`` fires both, earliest first.
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: the time advanced since the clock was created.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// Time since the clock's start.
        public let offset: Duration

        /// Creates an instant at `offset` from the clock's start.
        ///
        /// - Parameter offset: Time since the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` after this one.
        ///
        /// - Parameter duration: How far to move; negative moves back.
        /// - Returns: The instant at `offset + duration`.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        ///
        /// - Parameter other: The later (or earlier) instant.
        /// - Returns: `other.offset - offset`, negative when `other` is earlier.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        public var description: String { "\(offset)" }
    }

    struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    struct Timer {
        let id: Int
        let deadline: Instant
        let fire: @Sendable () -> Void
    }

    struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var waiters: [Waiter] = []
        var timers: [Timer] = []
        var timerWaiters: [Waiter] = []
        var cancelledBeforeSleeping: Set<Int> = []
        var nextID = 0
        var sleepCount = 0
    }

    let state = Locked(State())

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant; it moves only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock is exact.
    public var minimumResolution: Duration { .zero }

    /// The deadlines of the sleepers still waiting, earliest first.
    public var pendingDeadlines: [Instant] {
        state.withLock { $0.sleepers.map(\.deadline).sorted() }
    }

    /// How many sleeps have started on this clock, including finished and cancelled ones (a
    /// sleep whose deadline had already passed counts too).
    public var sleepCount: Int { state.withLock { $0.sleepCount } }

    /// Suspends until the clock has been advanced to `deadline`.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored: the clock is exact.
    /// - Throws: `CancellationError` when the calling task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            state.sleepCount += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelledBeforeSleeping.remove(id) != nil {
                        return .failure(CancellationError())
                    }
                    if deadline <= state.now {
                        return .success(())
                    }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome {
                    continuation.resume(with: outcome)
                } else {
                    resumeSatisfiedWaiters()
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    return state.sleepers.remove(at: index)
                }
                state.cancelledBeforeSleeping.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // A sleep that finished normally leaves no mark behind.
        _ = state.withLock { $0.cancelledBeforeSleeping.remove(id) }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline is reached.
    ///
    /// - Parameter duration: How far to move; negative durations are ignored.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: max(duration, .zero)))
    }

    /// Moves the clock to `instant` (never backwards) and wakes every sleeper and fires every
    /// timer whose deadline is reached, earliest first (at one instant, sleepers first).
    ///
    /// - Parameter instant: The new current instant.
    public func advance(to instant: Instant) {
        let (sleepers, timers) = state.withLock { state -> ([Sleeper], [Timer]) in
            state.now = max(state.now, instant)
            let now = state.now
            let sleepers = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            let timers = state.timers.filter { $0.deadline <= now }
            state.timers.removeAll { $0.deadline <= now }
            return (sleepers, timers)
        }
        let due =
            sleepers.map { (deadline: $0.deadline, order: 0, wake: $0.continuation.resume) }
            + timers.map { (deadline: $0.deadline, order: 1, wake: $0.fire) }
        for entry in due.sorted(by: { ($0.deadline, $0.order) < ($1.deadline, $1.order) }) {
            entry.wake()
        }
    }

    /// Waits until at least `count` sleepers are waiting on the clock.
    ///
    /// Call it before ``advance(by:)`` so the code under test has really started to sleep.
    /// - Parameter count: How many pending sleepers to wait for.
    public func waitForSleepers(_ count: Int) async {
        await waitUntil(count, pending: \.sleepers.count, waiters: \.waiters)
    }

    /// Waits until `pending` counts at least `count`, queued in `waiters` until it does.
    func waitUntil(_ count: Int, pending: KeyPath<State, Int>, waiters: WritableKeyPath<State, [Waiter]>) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state[keyPath: pending] >= count { return true }
                state[keyPath: waiters].append(Waiter(count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func resumeSatisfiedWaiters() {
        let ready = state.withLock { state -> [Waiter] in
            let pending = state.sleepers.count
            let ready = state.waiters.filter { $0.count <= pending }
            state.waiters.removeAll { $0.count <= pending }
            return ready
        }
        for waiter in ready {
            waiter.continuation.resume()
        }
    }
}

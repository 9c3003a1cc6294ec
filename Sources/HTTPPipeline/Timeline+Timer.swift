extension Timeline {
    /// A timer armed by ``schedule(after:_:)``: cancel it to forget it.
    package struct Timer: Sendable {
        private let disarm: @Sendable () -> Void

        init(_ disarm: @escaping @Sendable () -> Void) {
            self.disarm = disarm
        }

        /// Forgets the timer if it has not fired; does nothing after it fired or was cancelled.
        package func cancel() { disarm() }
    }

    /// Calls `fire` once, `delay` from now on this timeline's clock, unless the returned timer is
    /// cancelled first: the same machinery as a race's timer (one entry in the shared heap on
    /// `ContinuousClock`, one of a `ManualClock`'s timers in tests; a sleeping task only on any
    /// other clock).
    ///
    /// - Parameters:
    ///   - delay: How long from now; zero or less fires at once (on `ManualClock`, before this
    ///     returns).
    ///   - fire: Called at most once, never under a lock of the timeline's.
    /// - Returns: The timer, to cancel.
    package func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> Timer {
        switch timers {
        case .continuous:
            let timer = ClosureDeadline(fire)
            DeadlineScheduler.shared.schedule(timer, after: delay)
            return Timer { DeadlineScheduler.shared.cancel(timer) }
        case .scheduling(let clock):
            let id = clock.scheduleTimer(after: delay, fire)
            return Timer { clock.cancelTimer(id) }
        case .sleeping:
            let sleeper = Task { [self] in
                do { try await sleep(for: delay) } catch { return }
                fire()
            }
            return Timer { sleeper.cancel() }
        }
    }
}

/// A deadline in the shared heap that calls a closure when it passes.
///
/// `@unchecked Sendable` like its superclass, and why that is safe: besides what the superclass
/// guards, it stores one constant `@Sendable` closure.
final class ClosureDeadline: ScheduledDeadline, @unchecked Sendable {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
        super.init()
    }

    override func fire() { action() }
}

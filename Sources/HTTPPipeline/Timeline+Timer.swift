extension Timeline {
    /// Calls `fire` once, `delay` from now on this timeline's clock, unless the returned function
    /// disarms it first: the timer a race uses, for a plugin that waits for one of several events
    /// (hedging starts another attempt when it fires; the concurrency limit's queue timeout).
    ///
    /// No task sleeps for it: on `ContinuousClock` it is one entry in the shared
    /// ``DeadlineScheduler`` heap, fired on the scheduler's thread; on a clock with timers of its
    /// own (``TimerScheduling``, such as `ManualClock`), one of those; on any other clock, a task
    /// sleeping on it.
    ///
    /// - Parameters:
    ///   - delay: How long from now.
    ///   - fire: What to do when the timer fires; keep it short (it may run on the scheduler's
    ///     thread, before later timers fire) and never block.
    /// - Returns: Disarms the timer if it has not fired (its `fire` is released); calling it after
    ///   the timer fired does nothing.
    package func armTimer(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        arm(CallbackDeadline(fire), after: delay)
    }
}

/// A timer that calls a closure when it fires.
///
/// `@unchecked Sendable` like its superclass, and why that is safe: besides what the superclass
/// guards, it stores one constant `@Sendable` closure.
final class CallbackDeadline: ScheduledDeadline, @unchecked Sendable {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
        super.init()
    }

    override func fire() {
        action()
    }
}

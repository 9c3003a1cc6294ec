/// A clock that runs timers of its own, apart from its sleepers: `Timeline`'s races arm a timer
/// on it instead of sleeping in a child task.
///
/// `ManualClock` (module `HTTPPipelineTesting`) conforms, so a test sees a race's timer in
/// `pendingTimers` and never among the sleepers it counts.
package protocol TimerScheduling: Sendable {
    /// Calls `fire` once, `delay` from now on this clock, unless ``cancelTimer(_:)`` comes first.
    ///
    /// - Parameters:
    ///   - delay: How long from now; zero or less fires at once.
    ///   - fire: What to do when the timer fires; called at most once, never under a lock.
    /// - Returns: The timer's identifier, for ``cancelTimer(_:)``.
    func scheduleTimer(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> Int

    /// Forgets a timer that has not fired: its `fire` is released and never called. Cancelling
    /// a timer that fired or was cancelled does nothing.
    ///
    /// - Parameter id: What ``scheduleTimer(after:_:)`` returned.
    func cancelTimer(_ id: Int)
}

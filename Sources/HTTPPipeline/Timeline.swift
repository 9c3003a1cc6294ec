/// Time elapsed on an injected clock since a fixed start, for plugins' deadlines, windows and
/// timeouts.
///
/// Wraps `any Clock<Duration>` so that instants of a clock type unknown at compile time can be
/// compared, and sleeps on that clock (a manual clock in tests).
package struct Timeline: Sendable {
    private let elapsedTime: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    package init(_ clock: any Clock<Duration>) {
        (elapsedTime, sleeper) = Self.make(clock)
    }

    private static func make<C: Clock<Duration>>(
        _ clock: C
    ) -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void) {
        let start = clock.now
        return ({ start.duration(to: clock.now) }, { try await clock.sleep(for: $0) })
    }

    /// Time since the timeline was made.
    package var elapsed: Duration { elapsedTime() }

    /// Sleeps on the clock; throws `CancellationError` when the task is cancelled.
    package func sleep(for duration: Duration) async throws {
        try await sleeper(duration)
    }
}

/// Time elapsed on an injected clock since a fixed start, for plugins' deadlines, windows and
/// timeouts.
///
/// Wraps `any Clock<Duration>` so that instants of a clock type unknown at compile time can be
/// compared, sleeps on that clock (a manual clock in tests), and races an operation against a
/// timer on it (`race(within:orThrow:_:)`).
package struct Timeline: Sendable {
    /// How a race's timer runs on this timeline's clock.
    enum Timers: Sendable {
        /// `ContinuousClock`: the shared ``DeadlineScheduler``.
        case continuous
        /// A clock with timers of its own (a manual clock in tests).
        case scheduling(any TimerScheduling)
        /// Any other clock: a child task sleeping on it.
        case sleeping
    }

    private let elapsedTime: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    let timers: Timers

    package init(_ clock: any Clock<Duration>) {
        // Made for the concrete `ContinuousClock` when it is one: reading it then costs a direct
        // call, not witness calls through the existential (about 500 instructions a read, and
        // retry reads it twice a call).
        if let continuous = clock as? ContinuousClock {
            (elapsedTime, sleeper) = Self.make(continuous)
        } else {
            (elapsedTime, sleeper) = Self.make(clock)
        }
        timers =
            if clock is ContinuousClock {
                .continuous
            } else if let scheduling = clock as? any TimerScheduling {
                .scheduling(scheduling)
            } else {
                .sleeping
            }
    }

    @_specialize(where C == ContinuousClock)
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

    /// A deadline `limit` from now on this timeline's clock.
    ///
    /// - Parameter limit: How long from now.
    /// - Returns: The deadline, readable as the time remaining by any layer.
    package func deadline(after limit: Duration) -> HTTPDeadline {
        let elapsedTime = elapsedTime
        let end = elapsedTime() + limit
        return HTTPDeadline(limit: limit) { end - elapsedTime() }
    }
}

import HTTPPipeline

extension ManualClock {
    /// Runs `operation` while moving the clock on to each sleeper's or timer's deadline in turn,
    /// once the code under test has been quiet, until the operation ends; returns how it ended.
    ///
    /// For code whose sleepers and timers are not known in advance (a timeout around a retry
    /// around a slow transport). Before each move the clock waits for the code it woke last to
    /// answer (start, end or cancel a sleep or a timer, or finish; a second of real time at
    /// most), then until nothing has changed on it for `quiet` of real time (the tasks under
    /// test run meanwhile; nothing sleeps), then moves to the earliest pending deadline, so every
    /// sleep and timer fires in order and exactly on time.
    ///
    /// ```swift
    /// import Testing
    ///
    /// let clock = ManualClock()
    /// let result = await clock.run { try await pipeline.send(request) }
    /// #expect(throws: HTTPTimeoutError.self) { try result.get() }
    /// ```
    ///
    /// - Parameters:
    ///   - quiet: How long the clock must see no change before it moves; 20 ms by default (a
    ///     thread-sanitized run needed more than 2 ms).
    ///   - limit: The most the clock is moved in all; 10 minutes by default. The operation may
    ///     still be running when it is reached: it is then waited for without moving the clock.
    ///   - operation: The code under test.
    /// - Returns: What the operation returned or threw.
    public func run<T: Sendable>(
        quiet: Duration = .milliseconds(20),
        upTo limit: Duration = .seconds(600),
        _ operation: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error> {
        let task = Task { try await operation() }
        let finished = Locked(false)
        let watcher = Task {
            _ = await task.result
            finished.withLock { $0 = true }
        }
        let end = now.advanced(by: limit)
        let realTime = ContinuousClock()
        while !finished.value {
            var seen = activity
            var quietSince = realTime.now
            while !finished.value, quietSince.duration(to: realTime.now) < quiet {
                await Task.yield()
                let latest = activity
                if latest != seen {
                    seen = latest
                    quietSince = realTime.now
                }
            }
            guard !finished.value else { break }
            guard let next = (pendingDeadlines + pendingTimers).min(), next <= end else { continue }
            advance(to: next)
            // What woke must be answered (a sleeper started or cancelled, a timer armed or
            // disarmed, or the end) before the clock moves again: on a busy machine the woken task
            // may wait its turn for longer than `quiet`. A second at most, for code that wakes and
            // does nothing the clock sees.
            let moved = activity
            let wokeAt = realTime.now
            while !finished.value, activity == moved, wokeAt.duration(to: realTime.now) < .seconds(1) {
                await Task.yield()
            }
        }
        await watcher.value
        return await task.result
    }

    /// What has happened on the clock: the sleeps and timers started, and those still pending.
    private var activity: Activity {
        state.withLock { Activity(started: $0.nextID, sleepers: $0.sleepers.count, timers: $0.timers.count) }
    }

    private struct Activity: Equatable {
        let started: Int
        let sleepers: Int
        let timers: Int
    }
}

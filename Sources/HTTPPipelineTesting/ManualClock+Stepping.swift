import HTTPPipeline

extension ManualClock {
    /// Runs `operation` while moving the clock forward in steps, letting the tasks under test run
    /// between steps, until the operation ends; returns how it ended.
    ///
    /// For code whose sleepers and timers are not known in advance (a timeout around a retry
    /// around a slow transport): every sleep and timer fires in order, to within one step.
    /// Space the events of a script more than a few steps apart.
    ///
    /// ```swift
    /// import Testing
    ///
    /// let clock = ManualClock()
    /// let result = await clock.run(steppingBy: .milliseconds(100)) { try await pipeline.send(request) }
    /// #expect(throws: HTTPTimeoutError.self) { try result.get() }
    /// ```
    ///
    /// - Parameters:
    ///   - step: How far each step moves the clock; 100 ms by default.
    ///   - limit: The most the clock is moved in all; 10 minutes by default. The operation may
    ///     still be running when it is reached: it is then waited for without moving the clock.
    ///   - operation: The code under test.
    /// - Returns: What the operation returned or threw.
    public func run<T: Sendable>(
        steppingBy step: Duration = .milliseconds(100),
        upTo limit: Duration = .seconds(600),
        _ operation: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error> {
        let task = Task { try await operation() }
        let finished = Locked(false)
        let watcher = Task {
            _ = await task.result
            finished.withLock { $0 = true }
        }
        var moved = Duration.zero
        while !finished.value, moved < limit {
            for _ in 0..<20 { await Task.yield() }
            guard !finished.value else { break }
            advance(by: step)
            moved += step
        }
        await watcher.value
        return await task.result
    }
}

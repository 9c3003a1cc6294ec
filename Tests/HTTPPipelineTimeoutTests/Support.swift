import Foundation
import HTTPPipeline
import HTTPPipelineTesting

let timeoutURL = URL(string: "https://api.example.invalid/books/1") ?? URL(fileURLWithPath: "/")

/// Runs `call` while moving `clock` forward in steps of `step`, letting the tasks under test run
/// between steps, until the call ends; at most `limit` of clock time.
///
/// Stepping (rather than jumping to the next deadline) keeps the order of events right even when
/// a sleeper or timer is registered a little after the step that should have seen it: every
/// script in these tests spaces its events a whole second apart.
func drive<T: Sendable>(
    _ clock: ManualClock, step: Duration = .milliseconds(100), limit: Duration = .seconds(120),
    _ call: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error> {
    let task = Task { try await call() }
    let finished = Locked(false)
    let watcher = Task {
        _ = await task.result
        finished.withLock { $0 = true }
    }
    var moved = Duration.zero
    while !finished.value, moved < limit {
        for _ in 0..<20 { await Task.yield() }
        guard !finished.value else { break }
        clock.advance(by: step)
        moved += step
    }
    await watcher.value
    return await task.result
}

extension Result {
    /// The thrown error as a timeout, if it is one.
    var timeout: HTTPTimeoutError? {
        if case .failure(let error) = self { return error as? HTTPTimeoutError }
        return nil
    }
}

extension Result where Success == HTTPResponse {
    /// The status, if a response came back.
    var status: Int? {
        if case .success(let response) = self { return response.status }
        return nil
    }
}

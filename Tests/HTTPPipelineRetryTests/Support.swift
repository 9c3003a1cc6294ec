import Foundation
import HTTPPipeline
import HTTPPipelineRetry
import HTTPPipelineTesting

let testURL = URL(string: "https://api.example.invalid/books") ?? URL(fileURLWithPath: "/")

func request(_ method: String = "GET", headers: [String: String] = [:], body: HTTPBody? = nil) -> HTTPRequest {
    var request = HTTPRequest(method: HTTPMethod(rawValue: method), url: testURL, body: body)
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.fields[name] = value }
    return request
}

extension HTTPResponse {
    /// The whole body, read with a limit far above anything these tests send.
    func bytes() async throws -> Data {
        try await body.collect(upTo: 1 << 24)
    }
}

/// A policy whose waits are exact (no jitter): 1 s, 2 s, 4 s … capped at 8 s.
func exactPolicy(attempts: Int = 3, deadline: Duration = .seconds(60)) -> RetryPolicy {
    .attempts(
        attempts,
        backoff: .exponential(base: .seconds(1), multiplier: 2, cap: .seconds(8), jitter: .none),
        deadline: deadline
    )
}

/// A policy that retries without waiting, for tests about what is retried rather than when.
func immediatePolicy(attempts: Int = 3) -> RetryPolicy {
    .attempts(attempts, backoff: .immediate)
}

/// Runs `call` while advancing `clock` past every wait it starts, and returns the waits in order.
func drive<T: Sendable>(
    _ clock: ManualClock,
    _ call: @escaping @Sendable () async throws -> T
) async -> (result: Result<T, any Error>, waits: [Duration]) {
    let task = Task { try await call() }
    let finished = Locked(false)
    let watcher = Task {
        _ = await task.result
        finished.withLock { $0 = true }
    }
    var waits: [Duration] = []
    while !finished.value {
        if let deadline = clock.pendingDeadlines.first {
            waits.append(clock.now.duration(to: deadline))
            clock.advance(to: deadline)
        } else {
            await Task.yield()
        }
    }
    await watcher.value
    return (await task.result, waits)
}
/// 100,000 bytes that are not all alike, so a truncated or reordered body cannot pass for it.
let uploadPayload = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 256) })

import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineURLSession

/// A route that fails twice with 503 and then answers, recovered by retry; logging inside retry
/// records every attempt with its number.
func showRetry(server: LoopbackServer, transport: URLSessionTransport) async throws {
    let hits = Locked(0)
    server.route("GET", "/flaky") { _ in
        let hit = hits.withLock {
            $0 += 1
            return $0
        }
        return hit <= 2 ? .init(status: 503, headers: [("Retry-After", "0")]) : .init(body: Data("recovered".utf8))
    }
    let sink = InMemoryLogSink()
    let policy = RetryPolicy.attempts(
        4, backoff: .exponential(base: .milliseconds(40), cap: .milliseconds(200), jitter: .none))
    let pipeline = Pipeline(transport: transport) {
        demoCallObserver()
        RetryMiddleware(policy: policy)
        demoAttemptObserver()
        LoggingMiddleware(level: .basic, sink: sink)
    }
    heading("Retry: a route that fails twice, then answers")
    print("   \(pipeline)")
    let response = try await pipeline.send(HTTPRequest(url: server.baseURL.appendingPathComponent("flaky")))
    let data = try await response.body.collect(upTo: 1 << 16)
    for line in sink.text.split(separator: "\n") { print("   " + line) }
    print(
        "   the caller saw: \(response.status) \"\(String(decoding: data, as: UTF8.self))\" after \(sink.records.count) attempts"
    )
}

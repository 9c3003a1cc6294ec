import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import HTTPPipelineURLSession

/// What the deadline section saw, for its test.
struct DeadlineDemoResult {
    /// What the caller got: the timeout error, or `nil` if the call answered.
    let error: HTTPTimeoutError?
    /// The call's duration, measured.
    let elapsed: Duration
    /// Requests the slow route received.
    let requests: Int
}

/// A search the server takes 5 s to answer: a 1 s deadline outside retry cuts it (the request in
/// flight is cancelled) and the caller gets `HTTPTimeoutError` after 1 s, not 5.
@discardableResult
func showDeadline(server: LoopbackServer, transport: URLSessionTransport) async throws -> DeadlineDemoResult {
    server.route("GET", "/search", .init(body: Data("[]".utf8), delay: .seconds(5)))
    let sink = InMemoryLogSink()
    let pipeline = Pipeline(transport: transport) {
        demoCallObserver()
        TimeoutMiddleware.deadline(.seconds(1))  // the whole call, every attempt and wait
        RetryMiddleware(policy: .default)  // never waits past the deadline
        demoAttemptObserver()
        LoggingMiddleware(level: .basic, sink: sink)  // each attempt
    }
    heading("Deadlines: a slow search cut at 1 s")
    print("   \(pipeline)")
    let before = server.requests.count
    let clock = ContinuousClock()
    let start = clock.now
    var error: HTTPTimeoutError?
    do {
        let response = try await pipeline.send(HTTPRequest(url: server.baseURL.appendingPathComponent("search")))
        print("   the caller saw: \(response.status)")
    } catch let timeout as HTTPTimeoutError {
        error = timeout
        print("   the caller saw: HTTPTimeoutError: \(timeout)")
    }
    let elapsed = start.duration(to: clock.now)
    for line in sink.text.split(separator: "\n") { print("   " + line) }
    let requests = server.requests.count - before
    let milliseconds = Int((elapsed / .milliseconds(1)).rounded())
    print("   measured: \(milliseconds) ms for a route that answers after 5 s; \(requests) request sent")
    return DeadlineDemoResult(error: error, elapsed: elapsed, requests: requests)
}

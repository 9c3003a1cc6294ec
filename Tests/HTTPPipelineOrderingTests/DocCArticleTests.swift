import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The middleware of the HTTPPipeline catalog's landing page (Sources/HTTPPipeline/HTTPPipeline.docc).
struct RequestID: HTTPMiddleware {
    func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
        guard request.value(forHTTPHeaderField: "X-Request-ID") == nil else {
            return try await next(request)  // the caller chose one: pass through untouched
        }
        var request = request
        request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
        return try await next(request)
    }
}

/// The code samples of the HTTPPipeline catalog's landing page and its "Testing a pipeline"
/// article (TestingAPipeline.md), kept compiling and passing here.
@Suite struct DocCArticleTests {
    let url = URL(string: "https://api.example.com/books") ?? URL(fileURLWithPath: "/")

    @Test(arguments: [false, true])
    func theLandingPagePipelineDescribesItsOrder(verbose: Bool) {
        let client = Pipeline(transport: URLSessionTransport()) {
            RequestID()
            if verbose { LoggingMiddleware(level: .basic, sink: StandardErrorLogSink()) }
        }
        let expected =
            verbose
            ? "Pipeline(RequestID -> LoggingMiddleware -> URLSessionTransport)"
            : "Pipeline(RequestID -> URLSessionTransport)"
        #expect(client.description == expected)
    }

    @Test func theRequestIDReachesTheWire() async throws {
        let transport = ScriptedTransport([.ok("{}")])
        let pipeline = Pipeline(transport: transport) { RequestID() }
        _ = try await pipeline.send(URLRequest(url: url))
        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].value(forHTTPHeaderField: "X-Request-ID") != nil)
    }

    @Test func scriptedRepliesByRouteAndBySequence() async throws {
        let byRoute = ScriptedTransport(routes: [
            "GET /books/1": .ok(#"{"id": 1}"#, headers: ["Content-Type": "application/json"]),
            "GET /books/2": .status(404),
        ])
        let flaky = ScriptedTransport([.status(503), .failure(URLError(.timedOut)), .ok("finally")])
        let book = try await byRoute.send(URLRequest(url: url.appendingPathComponent("1")))
        #expect(book.1.statusCode == 200)
        #expect(try await byRoute.send(URLRequest(url: url.appendingPathComponent("2"))).1.statusCode == 404)
        #expect(try await flaky.send(URLRequest(url: url)).1.statusCode == 503)
        await #expect(throws: URLError.self) { try await flaky.send(URLRequest(url: url)) }
        #expect(try await flaky.send(URLRequest(url: url)).1.statusCode == 200)
    }

    @Test func requestIDRunsBetweenTheProbes() async throws {
        let log = OrderLog()
        let pipeline = Pipeline(transport: ScriptedTransport([.ok()])) {
            OrderProbe("outer", log: log)
            RequestID()
            OrderProbe("inner", log: log)
        }
        _ = try await pipeline.send(URLRequest(url: url))
        #expect(log.description == "outer> inner> inner< outer<")
        let mismatch = log.checkOrder(.response, ["inner", "outer"])
        #expect(mismatch == nil, "\(mismatch?.description ?? "")")
        let layers = pipeline.checkLayerOrder(["outer", "RequestID", "inner"])
        #expect(layers == nil, "\(layers?.description ?? "")")
    }

    @Test func probesInsideARetryRecordEachAttempt() async throws {
        let log = OrderLog()
        let policy = RetryPolicy.attempts(2, backoff: .immediate)
        let pipeline = Pipeline(transport: ScriptedTransport([.status(503), .ok()])) {
            RetryMiddleware(policy: policy, clock: ManualClock())
            OrderProbe("inner", log: log)
        }
        _ = try await pipeline.send(URLRequest(url: url))
        let visits = log.checkVisits("inner", perAttempt: [1: 1, 2: 1])
        #expect(visits == nil, "\(visits?.description ?? "")")
    }

    @Test func aTransientStatusIsRetriedAfterTheBackoff() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.status(503), .ok("finally")])
        let policy = RetryPolicy.attempts(2, backoff: .constant(.seconds(1)))
        let pipeline = Pipeline(transport: transport) { RetryMiddleware(policy: policy, clock: clock) }
        let request = URLRequest(url: url)
        let call = Task { try await pipeline.send(request) }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [clock.now.advanced(by: .seconds(1))])
        clock.advance(by: .seconds(1))
        let (_, response) = try await call.value
        #expect(response.statusCode == 200)
        #expect(transport.requests.count == 2)
    }

    @Test func requestIDKeepsTheContract() async {
        var request = URLRequest(url: url)
        request.setValue("caller", forHTTPHeaderField: "X-Request-ID")
        let report = await MiddlewareContract(passThroughRequest: request).check { RequestID() }
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func theStackTalksToARealServer() async throws {
        let server = LoopbackServer()
        server.route("GET", "/books/1", .init(status: 200, body: Data(#"{"id": 1}"#.utf8)))
        try server.start()
        defer { server.stop() }
        let pipeline = Pipeline(transport: URLSessionTransport()) { RequestID() }
        let (_, response) = try await pipeline.send(URLRequest(url: server.baseURL.appendingPathComponent("books/1")))
        #expect(response.statusCode == 200)
        #expect(server.requests.first?.header("X-Request-ID") != nil)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The middleware of the HTTPPipeline catalog's landing page (Sources/HTTPPipeline/HTTPPipeline.docc).
struct RequestID: HTTPMiddleware {
    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        guard request.fields["X-Request-ID"] == nil else {
            return try await next(request)  // the caller chose one: pass through untouched
        }
        var request = request
        request.fields["X-Request-ID"] = UUID().uuidString
        return try await next(request)
    }
}

/// What the HTTPPipeline catalog's landing page and its "Testing a pipeline" article
/// (TestingAPipeline.md) claim in code that does not run by itself: a printed description, a
/// scripted transport's replies, a layer-order check, a visit count. Every code block of theirs is
/// compiled, and the `@Test` functions they show run, in DocSnippetsTests
/// (Scripts/extract-snippets.py); these run the rest.
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

    @Test func scriptedRepliesByRouteAndBySequence() async throws {
        let byRoute = ScriptedTransport(routes: [
            "GET /books/1": .ok(#"{"id": 1}"#, headers: ["Content-Type": "application/json"]),
            "GET /books/2": .status(404),
        ])
        let flaky = ScriptedTransport([.status(503), .failure(URLError(.timedOut)), .ok("finally")])
        let book = try await byRoute.send(HTTPRequest(url: url.appendingPathComponent("1")))
        #expect(book.status == 200)
        #expect(try await byRoute.send(HTTPRequest(url: url.appendingPathComponent("2"))).status == 404)
        #expect(try await flaky.send(HTTPRequest(url: url)).status == 503)
        await #expect(throws: URLError.self) { try await flaky.send(HTTPRequest(url: url)) }
        #expect(try await flaky.send(HTTPRequest(url: url)).status == 200)
    }

    @Test func theLayersOfTheProbedPipelineAreInTheOrderTheArticleChecks() {
        let log = OrderLog()
        let pipeline = Pipeline(transport: ScriptedTransport([.ok()])) {
            OrderProbe("outer", log: log)
            RequestID()
            OrderProbe("inner", log: log)
        }
        let mismatch = pipeline.checkLayerOrder(["outer", "RequestID", "inner"])
        #expect(mismatch == nil, "\(mismatch?.description ?? "")")
    }

    @Test func probesInsideARetryRecordEachAttempt() async throws {
        let log = OrderLog()
        let policy = RetryPolicy.attempts(2, backoff: .immediate)
        let pipeline = Pipeline(transport: ScriptedTransport([.status(503), .ok()])) {
            RetryMiddleware(policy: policy, clock: ManualClock())
            OrderProbe("inner", log: log)
        }
        _ = try await pipeline.send(HTTPRequest(url: url))
        let visits = log.checkVisits("inner", perAttempt: [1: 1, 2: 1])
        #expect(visits == nil, "\(visits?.description ?? "")")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineRedirect
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTracing
import Testing

/// The middleware: one trace a call, a span an attempt, the caller's trace continued with its
/// flag, and nothing sent to an origin not allowed.
@Suite struct TraceContextMiddlewareTests {
    static let url = URL(string: "https://api.example/books") ?? URL(fileURLWithPath: "/")

    @Test func retriedAttemptsAreSiblingSpansOfOneTrace() async throws {
        let transport = ScriptedTransport([.status(503), .status(503), .status(200)])
        let client = Pipeline(transport: transport) {
            TraceContextMiddleware.call()
            RetryMiddleware(policy: .attempts(3, backoff: .immediate), clock: ManualClock())
            TraceContextMiddleware.attempt()
        }

        _ = try await client.send(HTTPRequest(url: Self.url))

        let sent = transport.requests.compactMap { TraceContext(traceparent: $0.fields["traceparent"] ?? "") }
        #expect(transport.requests.count == 3)
        #expect(sent.count == 3)
        #expect(Set(sent.map(\.traceID)).count == 1, "one trace")
        #expect(Set(sent.map(\.spanID)).count == 3, "a span an attempt")
        #expect(sent.allSatisfy { $0.isSampled })
        #expect(client.orderingDiagnostics.isEmpty)
    }

    @Test func theCallersTraceIsContinuedWithItsFlagAndState() async throws {
        let transport = ScriptedTransport([.status(200)])
        let client = Pipeline(transport: transport) {
            TraceContextMiddleware.call()
            TraceContextMiddleware.attempt()
        }
        var request = HTTPRequest(url: Self.url)
        request.context.traceContext = TraceContext(
            traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", tracestate: "rojo=00f067aa0ba902b7")

        _ = try await client.send(request)

        let fields = try #require(transport.requests.first?.fields)
        let sent = try #require(TraceContext(traceparent: fields["traceparent"] ?? ""))
        #expect(sent.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(sent.spanID != "00f067aa0ba902b7")
        #expect(!sent.isSampled, "the caller's unsampled flag is kept")
        #expect(fields["tracestate"] == "rojo=00f067aa0ba902b7")
    }

    @Test func aRedirectToAnotherOriginCarriesNoTraceUnlessAllowed() async throws {
        let cdnURL = try #require(URL(string: "https://cdn.example/"))
        let cdn = try #require(HTTPOrigin(cdnURL))
        for allowed in [false, true] {
            let transport = ScriptedTransport { request in
                request.url.host == "api.example"
                    ? .status(302, headers: ["Location": "https://cdn.example/cover.jpg"]) : .status(200)
            }
            let client = Pipeline(transport: transport) {
                TraceContextMiddleware.call()
                RedirectMiddleware()
                TraceContextMiddleware.attempt(allowing: allowed ? [cdn] : [])
            }

            _ = try await client.send(HTTPRequest(url: Self.url))

            #expect(transport.requests.first?.fields["traceparent"] != nil)
            #expect((transport.requests.last?.fields["traceparent"] != nil) == allowed)
        }
    }

    @Test func attemptOutsideRetryIsDiagnosed() {
        let wrong = Pipeline(transport: ScriptedTransport([])) {
            TraceContextMiddleware.attempt()
            RetryMiddleware(policy: .default)
        }
        #expect(!wrong.orderingDiagnostics.isEmpty)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's recommended stack compiles, describes itself in that order, and works together.
@Suite struct RecommendedStackTests {
    struct Tokens: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("t-old") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("t-new") }
    }

    @Test func readmeStackRecoversFromA503AndAnExpiredTokenAndLogsEachAttemptRedacted() async throws {
        let sink = InMemoryLogSink()
        let transport = ScriptedTransport { request in
            let token = request.fields["Authorization"]
            if token == "Bearer t-old" { return .status(401) }
            return .ok("{\"ok\":true}")
        }
        let flaky = ScriptedTransport([.status(503), .failure(URLError(.networkConnectionLost))])
        let flakyThenReal = ScriptedTransport { request in
            if flaky.requests.count < 2 { return try await replyOnce(flaky, request) }
            return try await replyOnce(transport, request)
        }
        let client = try Pipeline(transport: flakyThenReal) {
            try DefaultHeaders([.fixed("User-Agent", "Shelf/2.3")])
            RetryMiddleware(policy: .attempts(5, backoff: .immediate), clock: ManualClock())
            AuthMiddleware(source: Tokens(), clock: ManualClock())
            LoggingMiddleware(level: .headers, sink: sink)
            GzipMiddleware()
        }
        #expect(
            client.description
                == "Pipeline(DefaultHeaders -> RetryMiddleware -> AuthMiddleware -> LoggingMiddleware -> GzipMiddleware -> ScriptedTransport)"
        )
        let response = try await client.send(
            HTTPRequest(url: URL(string: "https://api.example.invalid/me") ?? URL(fileURLWithPath: "/")))
        #expect(response.status == 200)
        let data = try await response.body.collect(upTo: 1 << 20)
        #expect(String(decoding: data, as: UTF8.self) == "{\"ok\":true}")
        #expect(
            sink.records.map(\.attempt) == [1, 2, 3, 3], "attempt 3 was rejected once, then replayed with the new token"
        )
        #expect(!sink.text.contains("t-old") && !sink.text.contains("t-new"))
        #expect(flakyThenReal.requests.allSatisfy { $0.fields["User-Agent"] == "Shelf/2.3" })
    }
}

/// Sends a request to a scripted transport and returns its reply as a reply (for chaining scripts).
private func replyOnce(_ transport: ScriptedTransport, _ request: HTTPRequest) async throws -> ScriptedTransport.Reply {
    let response = try await transport.send(request)
    var headers: [String: String] = [:]
    for field in response.fields { headers[field.name.rawName] = field.value }
    return .status(response.status.code, headers: headers, body: try await response.body.collect(upTo: 1 << 20))
}

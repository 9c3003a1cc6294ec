import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRedaction
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import Testing

/// The recommended stack and a few plausible wrong ones, each with what a user would observe.
/// Every scenario: the first attempt meets a 503, the second a 401 (the token expired), the
/// replay succeeds with a gzip body; the URL carries a secret query item.
@Suite struct WholeStackTests {
    static let queryToken = "q-SECRET-token-77"
    static let body = Data(String(repeating: #"{"title":"Dune","author":"Herbert"},"#, count: 40).utf8)

    struct Tokens: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("old-SECRET-token") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("new-SECRET-token") }
    }

    /// The scripted server: 503, then 401 for the old token, then 200 with a gzip body.
    static func server() throws -> ScriptedTransport {
        let compressed = try Deflater.compress(body, format: .gzip)
        let calls = Locked(0)
        return ScriptedTransport { request in
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            if call == 1 { return .status(503) }
            if request.fields["Authorization"] != "Bearer new-SECRET-token" { return .status(401) }
            return .status(
                200, headers: ["Content-Encoding": "gzip", "Content-Length": "\(compressed.count)"], body: compressed)
        }
    }

    static var request: HTTPRequest {
        HTTPRequest(url: URL(string: "https://api.example.invalid/books?access_token=\(queryToken)") ?? orderingURL)
    }

    static let headers: [DefaultHeaders.Header] = [.computed("X-Request-ID") { _ in UUID().uuidString }]
    static func retry() -> RetryMiddleware {
        RetryMiddleware(policy: .attempts(3, backoff: .immediate), clock: ManualClock())
    }

    func assertNoSecret(_ sink: InMemoryLogSink, _ stack: String) {
        for secret in [Self.queryToken, "old-SECRET-token", "new-SECRET-token"] {
            #expect(!sink.text.contains(secret), "\(stack) logged \(secret)")
        }
    }

    @Test func recommendedStackLogsEveryAttemptAsSentWithDecodedBodiesAndOneRequestID() async throws {
        let sink = InMemoryLogSink()
        let transport = try Self.server()
        let pipeline = try StandardPipeline.build(
            over: transport,
            options: StandardOptions(
                headers: Self.headers,
                retry: .attempts(3, backoff: .immediate),
                credentials: Tokens(),
                logging: .init(level: .headers, sink: sink),
                clock: ManualClock()
            ))
        #expect(
            pipeline.checkLayerOrder([
                "DefaultHeaders", "ConcurrencyLimitMiddleware", "RedirectMiddleware", "RetryMiddleware",
                "AuthMiddleware", "LoggingMiddleware", "GzipMiddleware",
            ]) == nil)
        #expect(pipeline.orderingDiagnostics.isEmpty, "\(pipeline.orderingDiagnostics)")
        let response = try await pipeline.send(Self.request)
        let data = try await response.body.collect(upTo: 1 << 20)
        #expect(response.status == 200 && data == Self.body)
        #expect(
            sink.records.map(\.outcome) == [.response(status: 503), .response(status: 401), .response(status: 200)])
        #expect(sink.records.map(\.attempt) == [1, 2, 2])
        #expect(
            sink.records.allSatisfy { $0.requestHeaders.contains(.init(name: "Authorization", value: Redaction.mark)) })
        #expect(sink.records.last?.responseBytes == Self.body.count, "logging sees the decoded size")
        #expect(
            Set(transport.requests.map { $0.fields["X-Request-ID"] }).count == 1,
            "one request ID for the whole call")
        assertNoSecret(sink, "the recommended stack")
    }

    @Test func loggingOutermostMissesHeadersCredentialsAndAttempts() async throws {
        let sink = InMemoryLogSink()
        let pipeline = try Pipeline(transport: try Self.server()) {
            LoggingMiddleware(level: .headers, sink: sink)
            try DefaultHeaders(Self.headers)
            Self.retry()
            AuthMiddleware(source: Tokens(), clock: ManualClock())
            GzipMiddleware()
        }
        let data = try await pipeline.send(Self.request).body.collect(upTo: 1 << 20)
        #expect(data == Self.body)
        #expect(sink.records.count == 1, "one record per call, not per attempt")
        #expect(sink.records.first?.attempt == nil)
        #expect(sink.records.first?.requestHeaders.isEmpty == true, "neither the request ID nor the credential shows")
        #expect(pipeline.orderingDiagnostics.map(\.layer) == ["LoggingMiddleware", "LoggingMiddleware"])
        assertNoSecret(sink, "logging outermost")
    }

    @Test func authOutsideRetryReplaysTheRejectedCallOnceAndLogsCarryTheSameAttemptNumbers() async throws {
        let sink = InMemoryLogSink()
        let transport = try Self.server()
        let pipeline = try Pipeline(transport: transport) {
            try DefaultHeaders(Self.headers)
            AuthMiddleware(source: Tokens(), clock: ManualClock())
            Self.retry()
            LoggingMiddleware(level: .headers, sink: sink)
            GzipMiddleware()
        }
        let data = try await pipeline.send(Self.request).body.collect(upTo: 1 << 20)
        #expect(data == Self.body)
        // Retry inside auth: attempt 2 meets the 401 with the old token; retry cannot fix that, so the
        // whole retried call is handed back to auth, which refreshes and runs retry again from attempt 1.
        #expect(sink.records.map(\.attempt) == [1, 2, 1])
        #expect(pipeline.orderingDiagnostics.map(\.layer).contains("RetryMiddleware"))
        assertNoSecret(sink, "auth outside retry")
    }

    @Test func gzipOutsideLoggingLogsWireBytesAndTheEncoding() async throws {
        let sink = InMemoryLogSink()
        let pipeline = try Pipeline(transport: try Self.server()) {
            try DefaultHeaders(Self.headers)
            Self.retry()
            AuthMiddleware(source: Tokens(), clock: ManualClock())
            GzipMiddleware()
            LoggingMiddleware(level: .headers, sink: sink)
        }
        let data = try await pipeline.send(Self.request).body.collect(upTo: 1 << 20)
        #expect(data == Self.body)
        let last = try #require(sink.records.last)
        #expect(last.responseBytes != Self.body.count, "the log shows the compressed size")
        #expect(last.responseHeaders.contains(.init(name: "Content-Encoding", value: "gzip")))
        #expect(pipeline.orderingDiagnostics.map(\.layer) == ["LoggingMiddleware"])
        assertNoSecret(sink, "gzip outside logging")
    }
}

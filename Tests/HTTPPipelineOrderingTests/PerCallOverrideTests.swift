import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// A source with one fixed token that never needs refreshing.
private struct FixedToken: CredentialSource {
    let token: String

    func currentCredential() async throws -> Credential? { Credential(token: token) }
    func refreshCredential(after failed: Credential?) async throws -> Credential { Credential(token: token) }
}

/// Per-call overrides read from the request's context by each plugin: the call that sets one is
/// treated differently, and the calls around it are not.
@Suite struct PerCallOverrideTests {
    let url = URL(fileURLWithPath: "/").appendingPathComponent("resource")

    @Test("context.retryPolicy = .none sends a call once; a call without it is retried")
    func retryOverride() async throws {
        let transport = ScriptedTransport { _ in .status(503) }
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: .attempts(3, backoff: .immediate), budget: nil, clock: ManualClock())
        }
        var once = HTTPRequest(url: url)
        once.context.retryPolicy = RetryPolicy.none
        #expect(try await pipeline.send(once).status == 503)
        #expect(transport.requests.count == 1)
        #expect(try await pipeline.send(HTTPRequest(url: url)).status == 503)
        #expect(transport.requests.count == 4)
    }

    @Test("context.auth = .skip sends no credential; .using sends the other middleware's")
    func authOverride() async throws {
        let transport = ScriptedTransport { _ in .status(200) }
        let other = AuthMiddleware(source: FixedToken(token: "other-token"))
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: FixedToken(token: "own-token")) }
        var skipped = HTTPRequest(url: url)
        skipped.context.auth = .skip
        var borrowed = HTTPRequest(url: url)
        borrowed.context.auth = .using(other)
        _ = try await pipeline.send(skipped)
        _ = try await pipeline.send(borrowed)
        _ = try await pipeline.send(HTTPRequest(url: url))
        #expect(
            transport.requests.map { $0.fields["Authorization"] } == [nil, "Bearer other-token", "Bearer own-token"])
    }

    @Test("context.logLevel = .none leaves no record; .headers shows one call's headers")
    func logLevelOverride() async throws {
        let sink = InMemoryLogSink()
        let pipeline = Pipeline(transport: ScriptedTransport { _ in .status(200, headers: ["X-Answer": "42"]) }) {
            LoggingMiddleware(level: .basic, sink: sink)
        }
        var silent = HTTPRequest(url: url)
        silent.context.logLevel = LogLevel.none
        var detailed = HTTPRequest(url: url)
        detailed.context.logLevel = .headers
        _ = try await pipeline.send(silent)
        _ = try await pipeline.send(detailed)
        _ = try await pipeline.send(HTTPRequest(url: url))
        let records = sink.records
        #expect(records.count == 2)
        #expect(records.first?.responseHeaders.map(\.name) == ["X-Answer"])
        #expect(records.last?.responseHeaders.isEmpty == true)
    }

    @Test("context.gzip = .off adds no Accept-Encoding and hands the body up as it came")
    func gzipOverride() async throws {
        let compressed = try #require(Data(base64Encoded: "H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA=="))
        let transport = ScriptedTransport { _ in .status(200, headers: ["Content-Encoding": "gzip"], body: compressed) }
        let pipeline = Pipeline(transport: transport) { GzipMiddleware() }
        var off = HTTPRequest(url: url)
        off.context.gzip = .off
        let raw = try await pipeline.send(off)
        #expect(raw.body.bufferedData == compressed)
        #expect(raw.fields["Content-Encoding"] == "gzip")
        let decoded = try await pipeline.send(HTTPRequest(url: url))
        #expect(decoded.body.bufferedData == Data("hello".utf8))
        #expect(transport.requests.map { $0.fields["Accept-Encoding"] } == [nil, "gzip, deflate"])
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineCache
import HTTPPipelineCookies
import HTTPPipelineGzip
import HTTPPipelineHedging
import HTTPPipelineLogging
import HTTPPipelineStandard
import HTTPPipelineTesting
import Testing

/// `StandardOptions.cache` and `.cookies`: where the standard stack puts them, and what a hit
/// skips.
@Suite struct StandardCacheTests {
    struct Tokens: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("token-1") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("token-2") }
    }

    @Test(arguments: [false, true])
    func cookiesAndTheCacheSitJustInsideAuthOutsideHedgingAndLoggingWithNoDiagnostics(withInsertion: Bool) throws {
        var options = StandardOptions(
            credentials: Tokens(), cookies: CookieMiddleware(), cache: CacheMiddleware(),
            hedging: HedgingMiddleware(policy: .after(.milliseconds(50)), clock: ManualClock()),
            logging: .init(level: .basic, sink: InMemoryLogSink()), clock: ManualClock())
        if withInsertion { options.insert(Spy("signer"), at: .insideAuth) }

        let pipeline = try StandardPipeline.build(over: ScriptedTransport([]), options: options)

        let names = pipeline.layerNames.filter { $0 != "signer" }
        #expect(
            names == [
                "ConcurrencyLimitMiddleware", "RedirectMiddleware", "RetryMiddleware", "AuthMiddleware",
                "CookieMiddleware", "CacheMiddleware",
                "HedgingMiddleware", "LoggingMiddleware", "GzipMiddleware",
            ])
        #expect(pipeline.orderingDiagnostics.isEmpty)
    }

    @Test func aHitThroughTheStandardStackSendsNothingLogsNothingAndServesTheDecodedBody() async throws {
        let compressed = try Deflater.compress(Data("hello".utf8), format: .gzip)
        let sent = Locked(0)
        let transport = ScriptedTransport { _ in
            sent.withLock { $0 += 1 }
            return .status(200, headers: ["Content-Encoding": "gzip", "Cache-Control": "max-age=60"], body: compressed)
        }
        let sink = InMemoryLogSink()
        let options = StandardOptions(
            credentials: Tokens(), cache: CacheMiddleware(), logging: .init(level: .basic, sink: sink),
            clock: ManualClock())
        let pipeline = try StandardPipeline.build(over: transport, options: options)
        let request = HTTPRequest(url: orderingURL)

        let first = try await pipeline.send(request)
        let firstBody = try await first.body.collect(upTo: 1 << 10)
        let records = sink.records.count
        let hit = try await pipeline.send(request)

        #expect(firstBody == Data("hello".utf8))
        #expect(CacheOutcome(hit.head) == .hit)
        #expect(try await hit.body.collect(upTo: 1 << 10) == Data("hello".utf8))
        #expect(sent.value == 1)
        #expect(sink.records.count == records, "a hit reaches no layer inside the cache")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import Testing

/// Ordering diagnostics of a pipeline whose transport is itself a pipeline: one order, the outer
/// layers then the inner ones, as a request meets them.
@Suite struct NestedPipelineDiagnosticsTests {
    struct Tokens: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("t") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("t") }
    }

    let transport = ScriptedTransport([])
    let retry = RetryMiddleware(policy: .default, clock: ManualClock())
    let auth = AuthMiddleware(source: Tokens(), clock: ManualClock())
    let logging = LoggingMiddleware(level: .basic, sink: InMemoryLogSink())
    let gzip = GzipMiddleware()

    func standardOptions() -> StandardOptions {
        StandardOptions(
            headers: [.fixed("User-Agent", "x")], credentials: Tokens(), logging: .init(sink: InMemoryLogSink()),
            clock: ManualClock())
    }

    @Test func aSignerOutsideAPipelineThatHoldsAuthIsReportedAgainstAuthNestedBelowIt() throws {
        let inner = try StandardPipeline.build(over: transport, options: standardOptions())
        let outer = Pipeline(transport: inner) { RequestSigner() }
        #expect(inner.orderingDiagnostics.isEmpty, "the inner pipeline alone is in order")
        #expect(
            outer.orderingDiagnostics.map(\.description) == [
                "RequestSigner (layer 1) expects to be inside every auth layer, but AuthMiddleware (layer 6, nested 1 deep) is inside it: the signature covers the credential"
            ])
        let diagnostic = try #require(outer.orderingDiagnostics.first)
        #expect(
            (diagnostic.position, diagnostic.depth, diagnostic.otherPosition, diagnostic.otherDepth) == (0, 0, 5, 1))
        #expect(
            outer.description
                == "Pipeline(RequestSigner -> Pipeline(DefaultHeaders -> ConcurrencyLimitMiddleware -> RedirectMiddleware -> RetryMiddleware -> AuthMiddleware -> LoggingMiddleware -> GzipMiddleware -> ScriptedTransport))"
        )
    }

    @Test func aSignerNestedBelowLoggingIsReportedByTheOuterPipelinesLogging() throws {
        let inner = Pipeline(transport: transport) { RequestSigner() }
        let outer = try StandardPipeline.build(over: inner, options: standardOptions())
        #expect(
            outer.orderingDiagnostics.map(\.description) == [
                "LoggingMiddleware (layer 6) expects to be inside every request-changing layer, but RequestSigner (layer 8, nested 1 deep) is inside it: the log should show the request as it is sent"
            ])
    }

    @Test func aCorrectNestingAcrossTwoPipelinesIsClean() throws {
        let headers = try DefaultHeaders([.fixed("User-Agent", "x")])
        let inner = Pipeline(transport: transport) {
            RequestSigner()
            logging
            gzip
        }
        let outer = Pipeline(transport: inner) {
            headers
            retry
            auth
        }
        #expect(outer.orderingDiagnostics.isEmpty, "\(outer.orderingDiagnostics)")
        #expect(
            outer.description
                == "Pipeline(DefaultHeaders -> RetryMiddleware -> AuthMiddleware -> Pipeline(RequestSigner -> LoggingMiddleware -> GzipMiddleware -> ScriptedTransport))"
        )
    }

    @Test func fourPipelinesDeepAreCheckedAsOneOrder() throws {
        let headers = try DefaultHeaders([.fixed("User-Agent", "x")])
        let deepest = Pipeline(transport: transport) { auth }
        let third = Pipeline(transport: deepest) { logging }
        let middle = Pipeline(transport: third) { retry }
        let outer = Pipeline(transport: middle) { headers }
        #expect(
            outer.orderingDiagnostics.map(\.description) == [
                "LoggingMiddleware (layer 3, nested 2 deep) expects to be inside every request-changing layer, but AuthMiddleware (layer 4, nested 3 deep) is inside it: the log should show the request as it is sent"
            ])
        #expect(
            outer.description
                == "Pipeline(DefaultHeaders -> Pipeline(RetryMiddleware -> Pipeline(LoggingMiddleware -> Pipeline(AuthMiddleware -> ScriptedTransport))))"
        )
        #expect(outer.layerNames == ["DefaultHeaders"], "a pipeline's own layers stay its own")
    }

    /// A deliberately wrong order, split into an outer and an inner pipeline at every point: the
    /// diagnostics are those of the flat pipeline, positions included.
    @Test(arguments: 0...5)
    func anOrderSplitAcrossTwoPipelinesIsReportedAsTheFlatOrderIs(split: Int) throws {
        let layers: [any HTTPMiddleware] = [
            logging, auth, try DefaultHeaders([.fixed("User-Agent", "x")]), gzip, retry,
        ]
        func summary(_ diagnostics: [OrderingDiagnostic]) -> [String] {
            diagnostics.map { "\($0.layer)@\($0.position) \($0.expectation.role) \($0.other)@\($0.otherPosition)" }
        }
        let flat = Pipeline(transport: transport, middleware: layers)
        let nested = Pipeline(
            transport: Pipeline(transport: transport, middleware: Array(layers[split...])),
            middleware: Array(layers[..<split]))
        #expect(flat.orderingDiagnostics.count == 4)
        #expect(summary(nested.orderingDiagnostics) == summary(flat.orderingDiagnostics))
        #expect(nested.orderingDiagnostics.map(\.expectation) == flat.orderingDiagnostics.map(\.expectation))
    }
}

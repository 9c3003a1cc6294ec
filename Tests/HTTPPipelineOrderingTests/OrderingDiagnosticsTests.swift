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

/// Each built-in placement expectation, triggered by one order and not by the other.
@Suite struct OrderingDiagnosticsTests {
    struct Tokens: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("t") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("t") }
    }

    let transport = ScriptedTransport([])
    let retry = RetryMiddleware(policy: .default, clock: ManualClock())
    let auth = AuthMiddleware(source: Tokens(), clock: ManualClock())
    let logging = LoggingMiddleware(level: .basic, sink: InMemoryLogSink())
    let gzip = GzipMiddleware()

    func reasons(_ pipeline: Pipeline<some HTTPMiddleware, ScriptedTransport>) -> [String] {
        pipeline.orderingDiagnostics.map {
            "\($0.layer) \($0.expectation.side == .outside ? "outside" : "inside") \($0.expectation.role) \($0.other)"
        }
    }

    @Test func headersOutsideRetryIsCleanAndInsideIsReported() throws {
        let headers = try DefaultHeaders([.fixed("User-Agent", "x")])
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    headers
                    retry
                }
            ).isEmpty)
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    retry
                    headers
                }) == ["DefaultHeaders outside retry RetryMiddleware"])
    }

    @Test func headersOutsideAuthIsCleanAndInsideIsReported() throws {
        let headers = try DefaultHeaders([.fixed("User-Agent", "x")])
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    headers
                    auth
                }
            ).isEmpty)
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    auth
                    headers
                }) == ["DefaultHeaders outside auth AuthMiddleware"])
    }

    @Test func loggingInsideRequestChangesIsCleanAndOutsideIsReported() throws {
        let headers = try DefaultHeaders([.fixed("User-Agent", "x")])
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    headers
                    auth
                    logging
                }
            ).isEmpty)
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    logging
                    headers
                }) == ["LoggingMiddleware inside request-changing DefaultHeaders"])
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    logging
                    auth
                }) == ["LoggingMiddleware inside request-changing AuthMiddleware"])
    }

    @Test func loggingOutsideDecodingIsCleanAndInsideIsReported() {
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    logging
                    gzip
                }
            ).isEmpty)
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    gzip
                    logging
                }) == ["LoggingMiddleware outside decoding GzipMiddleware"])
    }

    @Test func retryOutsideAuthIsCleanAndInsideIsReported() {
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    retry
                    auth
                }
            ).isEmpty)
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    auth
                    retry
                }) == ["RetryMiddleware outside auth AuthMiddleware"])
    }

    @Test func standardStackHasNoDiagnosticsAndTheDocumentedOrder() throws {
        let options = StandardOptions(
            headers: [.fixed("User-Agent", "x")],
            credentials: Tokens(),
            logging: .init(sink: InMemoryLogSink()),
            clock: ManualClock()
        )
        let pipeline = try StandardPipeline.build(over: transport, options: options)
        #expect(pipeline.orderingDiagnostics.isEmpty)
        #expect(
            pipeline.description
                == "Pipeline(DefaultHeaders -> ConcurrencyLimitMiddleware -> RedirectMiddleware -> RetryMiddleware -> AuthMiddleware -> LoggingMiddleware -> GzipMiddleware -> ScriptedTransport)"
        )
        let minimal = try StandardPipeline.build(
            over: transport, options: StandardOptions(concurrencyLimit: nil, redirects: nil, retry: nil, gzip: nil))
        #expect(minimal.layerNames.isEmpty, "plugins set to nil are left out")
    }

    @Test func diagnosticReadsAsASentenceWithPositionsAndReason() {
        let diagnostic = Pipeline(transport: transport) {
            auth
            retry
        }.orderingDiagnostics.first
        #expect(
            diagnostic?.description
                == "RetryMiddleware (layer 2) expects to be outside every auth layer, but AuthMiddleware (layer 1) is outside it: each attempt should run auth again, so an attempt after a refresh carries the new token"
        )
    }

    struct ResponseCache: HTTPMiddleware, PlacementDeclaring {
        var roles: Set<MiddlewareRole> { ["cache"] }
        var placementExpectations: [PlacementExpectation] { [.inside(.auth, because: "cached responses are per user")] }
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await next(request)
        }
    }

    struct Metrics: HTTPMiddleware, PlacementDeclaring {
        var roles: Set<MiddlewareRole> { ["metrics"] }
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await next(request)
        }
    }

    @Test func userMiddlewareDeclaresItsOwnExpectationsAndRoles() {
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    auth
                    ResponseCache()
                }
            ).isEmpty)
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    ResponseCache()
                    auth
                }) == ["ResponseCache inside auth AuthMiddleware"])
        #expect(
            reasons(
                Pipeline(transport: transport) {
                    Metrics()
                    ResponseCache()
                }
            ).isEmpty, "other roles are not its concern")
    }

    @Test func runTimeStacksAreCheckedLayerByLayer() {
        let pipeline = Pipeline(transport: transport, middleware: [auth, MiddlewareStack([logging, retry])])
        #expect(reasons(pipeline) == ["RetryMiddleware outside auth AuthMiddleware"])
    }
}

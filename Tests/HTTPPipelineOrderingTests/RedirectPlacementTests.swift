import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRedirect
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// Where `RedirectMiddleware` expects to sit, each expectation triggered by one order only.
@Suite struct RedirectPlacementTests {
    let redirects = RedirectMiddleware()
    let retry = RetryMiddleware(policy: .default, clock: ManualClock())
    let auth = AuthMiddleware(source: OrderingDiagnosticsTests.Tokens(), clock: ManualClock())
    let logging = LoggingMiddleware(level: .basic, sink: InMemoryLogSink())

    func reasons(_ layers: [any HTTPMiddleware]) -> [String] {
        placementReasons(layers)
    }

    @Test func redirectsOutsideAuthIsCleanAndInsideIsReported() {
        #expect(reasons([redirects, auth]).isEmpty)
        #expect(reasons([auth, redirects]) == ["RedirectMiddleware outside auth AuthMiddleware"])
    }

    @Test func redirectsOutsideRetryIsCleanAndInsideIsReported() {
        #expect(reasons([redirects, retry]).isEmpty)
        #expect(reasons([retry, redirects]) == ["RedirectMiddleware outside retry RetryMiddleware"])
    }

    @Test func redirectsInsideHeadersIsCleanAndOutsideIsReported() throws {
        let headers = try DefaultHeaders([.fixed("User-Agent", "x")])
        #expect(reasons([headers, redirects]).isEmpty)
        #expect(reasons([redirects, headers]) == ["RedirectMiddleware inside headers DefaultHeaders"])
    }

    @Test func loggingInsideRedirectsIsCleanAndOutsideIsReported() {
        #expect(reasons([redirects, logging]).isEmpty)
        #expect(reasons([logging, redirects]) == ["LoggingMiddleware inside request-changing RedirectMiddleware"])
    }

    @Test func theRecommendedStackWithRedirectsHasNoDiagnostics() throws {
        let headers = try DefaultHeaders([.fixed("User-Agent", "x")])
        #expect(reasons([headers, redirects, retry, auth, logging, GzipMiddleware()]).isEmpty)
    }
}

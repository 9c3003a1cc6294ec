import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRedirect
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import Testing

/// Where `TimeoutMiddleware` expects to sit, each expectation triggered by one order only.
@Suite struct TimeoutPlacementTests {
    let deadline = TimeoutMiddleware.deadline(.seconds(10), clock: ManualClock())
    let perAttempt = TimeoutMiddleware.perAttempt(.seconds(3), clock: ManualClock())
    let redirects = RedirectMiddleware()
    let retry = RetryMiddleware(policy: .default, clock: ManualClock())

    func reasons(_ layers: [any HTTPMiddleware]) -> [String] {
        placementReasons(layers)
    }

    @Test func aDeadlineOutsideRetryIsCleanAndInsideIsReported() {
        #expect(reasons([deadline, retry]).isEmpty)
        #expect(reasons([retry, deadline]) == ["TimeoutMiddleware.deadline outside retry RetryMiddleware"])
    }

    @Test func aDeadlineOutsideRedirectsIsCleanAndInsideIsReported() {
        #expect(reasons([deadline, redirects]).isEmpty)
        #expect(reasons([redirects, deadline]) == ["TimeoutMiddleware.deadline outside redirects RedirectMiddleware"])
    }

    @Test func aPerAttemptTimeoutInsideRetryIsCleanAndOutsideIsReported() {
        #expect(reasons([retry, perAttempt]).isEmpty)
        #expect(reasons([perAttempt, retry]) == ["TimeoutMiddleware.perAttempt inside retry RetryMiddleware"])
    }

    @Test func eitherKindAloneIsClean() {
        #expect(reasons([deadline]).isEmpty)
        #expect(reasons([perAttempt]).isEmpty)
    }

    @Test func theRecommendedStackWithBothTimeoutsHasNoDiagnostics() throws {
        let headers = try DefaultHeaders([.fixed("User-Agent", "x")])
        let auth = AuthMiddleware(source: OrderingDiagnosticsTests.Tokens(), clock: ManualClock())
        let logging = LoggingMiddleware(level: .basic, sink: InMemoryLogSink())
        #expect(
            reasons([deadline, headers, redirects, retry, perAttempt, auth, logging, GzipMiddleware()]).isEmpty)
    }
}

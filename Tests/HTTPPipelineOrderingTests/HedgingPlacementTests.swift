import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineHedging
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import Testing

/// Where `HedgingMiddleware` expects to sit, each expectation triggered by one order only.
@Suite struct HedgingPlacementTests {
    let hedging = HedgingMiddleware(policy: .after(.milliseconds(50)), clock: ManualClock())
    let retry = RetryMiddleware(policy: .default, clock: ManualClock())
    let auth = AuthMiddleware(source: MatrixCredentials(), clock: ManualClock())
    let deadline = TimeoutMiddleware.deadline(.seconds(10), clock: ManualClock())
    let perAttempt = TimeoutMiddleware.perAttempt(.seconds(2), clock: ManualClock())

    @Test func hedgingInsideRetryIsCleanAndOutsideIsReported() {
        #expect(placementReasons([retry, hedging]).isEmpty)
        #expect(placementReasons([hedging, retry]) == ["HedgingMiddleware inside retry RetryMiddleware"])
    }

    @Test func hedgingInsideAuthIsCleanAndOutsideIsReported() {
        #expect(placementReasons([auth, hedging]).isEmpty)
        #expect(placementReasons([hedging, auth]) == ["HedgingMiddleware inside auth AuthMiddleware"])
    }

    @Test func hedgingInsideADeadlineIsCleanAndOutsideIsReported() {
        #expect(placementReasons([deadline, hedging]).isEmpty)
        #expect(
            placementReasons([hedging, deadline]) == ["HedgingMiddleware inside deadline TimeoutMiddleware.deadline"])
    }

    @Test func aPerAttemptTimeoutOnEitherSideOfHedgingIsClean() {
        #expect(placementReasons([hedging, perAttempt]).isEmpty)
        #expect(placementReasons([perAttempt, hedging]).isEmpty)
    }

    @Test func theRecommendedResilientOrderIsClean() {
        let logging = LoggingMiddleware(level: .basic, sink: InMemoryLogSink())
        #expect(placementReasons([deadline, retry, perAttempt, auth, hedging, logging]).isEmpty)
    }
}

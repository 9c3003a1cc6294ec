import PipelineSoak
import Testing

/// The short soak: the same run as `pipeline-bench --suite soak`, with fewer requests.
@Suite struct SoakTests {
    @Test(.timeLimit(.minutes(3)))
    func everyRequestThroughTheStandardPipelineEndsInExactlyOneTypedOutcomeUnderInjectedFaults() async {
        let report = await SoakRun.run(SoakConfiguration(requests: 4_000, warmUpRequests: 0, lostTokenAnswerEvery: 2))

        #expect(report.violations == [], "outcomes: \(report.outcomes)")
        #expect(report.answered == 4_000)
        #expect(report.outcomes[.ok, default: 0] > 3_000)
        for outcome in [SoakOutcome.cancelled, .gzipError] {
            #expect(report.outcomes[outcome, default: 0] > 0, "no request ended \(outcome)")
        }
        #expect(report.revocations > 0)
        #expect(report.refreshes > 0)
        #expect(report.accounts == 4, "three account switches")
        #expect(report.outcomes[.refreshTimedOut, default: 0] > 0, "no request outwaited a slow refresh")
        #expect(report.tokenAnswersLost > 0, "no token answer was lost")
        // A lost answer of a refresh an account switch made moot is not asked for again.
        #expect(report.graceReuses > 0)
        #expect(report.graceReuses <= report.tokenAnswersLost)
        #expect(report.outcomes[.loggedOut, default: 0] == 0)
        #expect(report.logRecords >= 4_000)
    }

    @Test(.timeLimit(.minutes(3)))
    func aClientNotToldTheServersReuseGraceIsLoggedOutByALostTokenAnswerButNeverPresentsATokenTwice() async {
        let report = await SoakRun.run(
            SoakConfiguration(
                requests: 1_000, concurrency: 8, warmUpRequests: 0, revocationRate: 0.03, accountSwitches: 0,
                tokenReuseGrace: nil)
        )

        #expect(report.tokenAnswersLost > 0)
        #expect(report.violations.contains { $0.hasSuffix("requests were logged out") }, "\(report.violations)")
        #expect(!report.violations.contains { $0.contains("(reuse)") }, "\(report.violations)")
    }

    @Test(.timeLimit(.minutes(3)))
    func aRefreshThatFollowsEveryRevocationIsCountedOncePerRevokedToken() async {
        let report = await SoakRun.run(
            SoakConfiguration(
                requests: 1_000,
                concurrency: 8,
                warmUpRequests: 0,
                revocationRate: 0.02,
                cancellationRate: 0
            )
        )

        #expect(report.violations == [])
        #expect(report.revocations > 5)
        #expect(report.refreshes <= report.revocations)
        #expect(report.refreshes >= report.revocations - report.accounts)
    }

    @Test func aRunWhoseRetryableFailuresWereNotRetriedBreaksTheOutcomeBounds() {
        var withoutRetry = SoakReport()
        withoutRetry.requests = 4_000
        withoutRetry.outcomes = [
            .ok: 3_480, .status(503): 120, .status(429): 120, .transportError: 120, .gzipError: 40, .cancelled: 40,
            .status(401): 80,
        ]
        let violations = SoakRun.outcomeBounds(withoutRetry, SoakConfiguration(requests: 4_000))

        #expect(violations.contains("360 requests ended in a retryable failure: retry is not retrying"))
    }

    @Test func aRunWhereAuthNeverRefreshesBreaksTheOutcomeBounds() {
        var withoutAuth = SoakReport()
        withoutAuth.requests = 4_000
        withoutAuth.outcomes = [.status(401): 3_960, .cancelled: 40]
        let violations = SoakRun.outcomeBounds(withoutAuth, SoakConfiguration(requests: 4_000))

        #expect(violations.contains("3960 requests ended 401: auth is not refreshing"))
        #expect(violations.contains("only 0 of 4000 requests succeeded"))
    }
}

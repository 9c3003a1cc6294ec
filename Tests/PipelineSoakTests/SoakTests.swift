import PipelineSoak
import Testing

/// The short soak: the same run as `pipeline-bench --suite soak`, with fewer requests.
@Suite struct SoakTests {
    @Test(.timeLimit(.minutes(1)))
    func everyRequestThroughTheStandardPipelineEndsInExactlyOneTypedOutcomeUnderInjectedFaults() async {
        let report = await SoakRun.run(SoakConfiguration(requests: 4_000, warmUpRequests: 0))

        #expect(report.violations == [])
        #expect(report.answered == 4_000)
        #expect(report.outcomes[.ok, default: 0] > 3_000)
        for outcome in [SoakOutcome.cancelled, .gzipError] {
            #expect(report.outcomes[outcome, default: 0] > 0, "no request ended \(outcome)")
        }
        #expect(report.revocations > 0)
        #expect(report.refreshes > 0)
        #expect(report.logRecords >= 4_000)
    }

    @Test func aRefreshThatFollowsEveryRevocationIsCountedOncePerRevokedToken() async {
        let report = await SoakRun.run(
            SoakConfiguration(requests: 1_000, warmUpRequests: 0, revocationRate: 0.05, cancellationRate: 0)
        )

        #expect(report.violations == [])
        #expect(report.revocations > 10)
        #expect(report.refreshes >= report.revocations - 1)
    }
}

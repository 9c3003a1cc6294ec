import Foundation
import HTTPPipeline
import HTTPPipelineEvents
import HTTPPipelineHedging
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import Testing

/// `StandardOptions.observer`: the call layer outermost, the attempt layer just inside hedging,
/// in both build branches, with no diagnostics; and a standard call's events.
@Suite struct StandardObserverTests {
    static let url = URL(string: "https://api.example/a") ?? URL(fileURLWithPath: "/")

    @Test func theObserverLayersSitOutermostAndJustInsideHedgingInBothBuildBranches() throws {
        let clock = ManualClock()
        var options = StandardOptions(
            hedging: HedgingMiddleware(policy: .after(.seconds(1)), clock: clock), clock: clock)
        options.observer = EventLog()
        let inlined = try StandardPipeline.build(over: ScriptedTransport([]), options: options)
        let expected = [
            "ObserverMiddleware", "ConcurrencyLimitMiddleware", "RedirectMiddleware", "RetryMiddleware",
            "HedgingMiddleware", "ObserverMiddleware", "GzipMiddleware",
        ]
        #expect(inlined.layerNames == expected)
        #expect(inlined.orderingDiagnostics.isEmpty, "\(inlined.orderingDiagnostics)")
        options.insert(OrderProbe("outermost", log: OrderLog()), at: .outermost)
        options.insert(OrderProbe("insideAuth", log: OrderLog()), at: .insideAuth)
        let inserted = try StandardPipeline.build(over: ScriptedTransport([]), options: options)
        #expect(
            inserted.layerNames == [
                "ObserverMiddleware", "outermost", "ConcurrencyLimitMiddleware", "RedirectMiddleware",
                "RetryMiddleware", "HedgingMiddleware",
                "ObserverMiddleware", "insideAuth", "GzipMiddleware",
            ])
        #expect(inserted.orderingDiagnostics.isEmpty, "\(inserted.orderingDiagnostics)")
        let plain = try StandardPipeline.build(over: ScriptedTransport([]), options: StandardOptions(clock: clock))
        #expect(!plain.layerNames.contains("ObserverMiddleware"), "no observer, no layer")
    }

    @Test func aStandardCallThatIsRetriedReportsBothAttemptsAndTheRetry() async throws {
        let events = EventLog()
        var options = StandardOptions(retry: .attempts(2, backoff: .immediate), clock: ManualClock())
        options.observer = events
        let client = try StandardPipeline.build(over: ScriptedTransport([.status(503), .ok("x")]), options: options)

        _ = try await client.send(HTTPRequest(url: Self.url))

        let mismatch = events.checkOrder([
            "call.started",
            "attempt.started #1", "attempt.finished #1 503", "retry.scheduled #1 503 (status 503)",
            "attempt.started #2", "attempt.finished #2 200",
            "call.finished 200",
        ])
        #expect(mismatch == nil, "\(mismatch?.description ?? "")")
    }
}

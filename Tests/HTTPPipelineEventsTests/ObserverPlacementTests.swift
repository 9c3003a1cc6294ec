import Foundation
import HTTPPipeline
import HTTPPipelineEvents
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// Where the two observer layers go, both ways: the attempt layer inside retry sees every
/// attempt, outside it one; the call layer inside retry is reported, and sees the call restart.
@Suite struct ObserverPlacementTests {
    static let url = URL(string: "https://api.example/a") ?? URL(fileURLWithPath: "/")

    static func retry() -> RetryMiddleware {
        RetryMiddleware(policy: .attempts(2, backoff: .immediate), clock: ManualClock())
    }

    @Test func theAttemptLayerInsideRetryReportsEachAttemptAndOutsideItOnlyOne() async throws {
        let inside = EventLog()
        _ = try await Pipeline(transport: ScriptedTransport([.status(503), .ok()])) {
            ObserverMiddleware.call(inside)
            Self.retry()
            ObserverMiddleware.attempt()
        }.send(HTTPRequest(url: Self.url))
        let outside = EventLog()
        let outsideClient = Pipeline(transport: ScriptedTransport([.status(503), .ok()])) {
            ObserverMiddleware.call(outside)
            ObserverMiddleware.attempt()
            Self.retry()
        }
        _ = try await outsideClient.send(HTTPRequest(url: Self.url))

        #expect(
            inside.lines().filter { $0.hasPrefix("attempt.started") } == ["attempt.started #1", "attempt.started #2"])
        #expect(outside.lines().filter { $0.hasPrefix("attempt.started") } == ["attempt.started"])
        #expect(
            outsideClient.orderingDiagnostics.map(\.layer) == ["ObserverMiddleware"],
            "the misplaced attempt layer is reported")
    }

    @Test func theCallLayerInsideRetryIsReportedAndStartsACallPerAttempt() async throws {
        let events = EventLog()
        let client = Pipeline(transport: ScriptedTransport([.status(503), .ok()])) {
            Self.retry()
            ObserverMiddleware.call(events)
        }
        _ = try await client.send(HTTPRequest(url: Self.url))

        #expect(Set(events.events.map(\.call)).count == 2, "each attempt looks like a call of its own")
        #expect(!events.lines().contains { $0.hasPrefix("retry.") }, "retry is outside the observation")
        #expect(client.orderingDiagnostics.map(\.layer) == ["ObserverMiddleware"])
    }
}

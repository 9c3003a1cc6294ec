import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineEvents
import HTTPPipelineRedirect
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// The events of one call, in the documented order, from every layer that reports.
@Suite struct EventOrderTests {
    static let url = URL(string: "https://api.example/a") ?? URL(fileURLWithPath: "/")

    /// Tokens that turn `old` into `new` on refresh, counting refreshes.
    final class Tokens: CredentialSource {
        let refreshes = Locked(0)
        func currentCredential() async throws -> Credential? { .bearer("old") }
        func refreshCredential(after failed: Credential?) async throws -> Credential {
            refreshes.withLock { $0 += 1 }
            return .bearer("new")
        }
    }

    @Test func aCallThatRetriesRefreshesAndRedirectsReportsEachStepInOrder() async throws {
        let events = EventLog()
        let probes = OrderLog()
        let transport = ScriptedTransport([
            .status(503),
            .status(401),
            .status(302, headers: ["Location": "/b"]),
            .ok("done"),
        ])
        let client = Pipeline(transport: transport) {
            ObserverMiddleware.call(events)
            OrderProbe("outer", log: probes)
            RedirectMiddleware(policy: .default)
            RetryMiddleware(policy: .attempts(3, backoff: .immediate), clock: ManualClock())
            AuthMiddleware(source: Tokens(), clock: ManualClock())
            ObserverMiddleware.attempt()
            OrderProbe("wire", log: probes)
        }

        let response = try await client.send(HTTPRequest(url: Self.url))

        #expect(response.status == 200)
        let mismatch = events.checkOrder([
            "call.started",
            "attempt.started #1", "attempt.finished #1 503", "retry.scheduled #1 503 (status 503)",
            "attempt.started #2", "attempt.finished #2 401",
            "auth.refresh.started #2 401", "auth.refresh.finished #2",
            "attempt.started #2", "attempt.finished #2 302",
            "redirect.followed 302 (https://api.example:443)",
            "attempt.started #1", "attempt.finished #1 200",
            "call.finished 200",
        ])
        #expect(mismatch == nil, "\(mismatch?.description ?? "")")
        #expect(probes.count("wire") == 4, "one event pair per request on the wire: \(probes)")
        #expect(Set(events.events.map(\.call)).count == 1, "one call")
        #expect(client.orderingDiagnostics.isEmpty)
    }
}

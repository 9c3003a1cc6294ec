import Foundation
import HTTPPipelineAuth
import Testing

@testable import pipeline_demo

/// The demo's storm section: 200 calls with an expired token over loopback, without and with a
/// concurrency limit of 8 above auth, counted at the server.
@Suite struct StormDemoTests {
    @Test("Without a limit every storm call is sent twice; with a limit of 8 above auth hardly any is")
    func aLimitAboveAuthSendsAlmostEveryStormCallOnce() async throws {
        // A refresh timeout of a day, not 30 s: the sanitized suite has stalled a test for 80 s,
        // and a refresh cut by its timeout would fail the calls waiting for it.
        let runs = try await showStorm(calls: 200, auth: AuthOptions(refreshTimeout: .seconds(86_400)))
        try #require(runs.count == 2)
        let (unlimited, limited) = (runs[0], runs[1])
        #expect(unlimited.succeeded == 200 && limited.succeeded == 200)
        #expect(unlimited.refreshes == 1 && limited.refreshes == 1)
        #expect(unlimited.roundTripsPerCall == 2, "every call left with the expired token")
        #expect(limited.roundTripsPerCall <= 1.05, "at most the 8 in flight carried it, plus a few")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@testable import PipelineDemo

/// The demo's hedging section, against a loopback server where every 20th request stalls.
@Suite struct HedgingDemoTests {
    @Test("The hedging section answers stalled calls through hedges, with at most a tenth more requests")
    func hedgingAnswersStalledCallsWithFewExtraRequests() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }

        let (plain, hedged) = try await showHedging(server: server, transport: URLSessionTransport())

        #expect(plain.requests == plain.calls, "without hedging, one request per call")
        #expect(plain.p99 >= .seconds(1), "five calls in a hundred stall for a second")
        #expect(hedged.requests > hedged.calls, "stalled calls were hedged")
        #expect(hedged.requests <= hedged.calls + hedged.calls / 10, "the default budget: at most 10 % extra")
        #expect(hedged.p99 < .seconds(1), "no call waited out its stall")
    }
}

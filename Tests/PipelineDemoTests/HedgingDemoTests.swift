import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

@testable import pipeline_demo

/// The demo's hedging section, against a loopback server where every 20th request stalls.
@Suite struct HedgingDemoTests {
    @Test("The hedging section hedges slow calls, with at most a tenth more requests")
    func hedgingHedgesSlowCallsWithFewExtraRequests() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }

        let (plain, hedged) = try await showHedging(server: server, transport: URLSessionTransport())

        #expect(plain.requests == plain.calls, "without hedging, one request per call")
        #expect(plain.p99 >= .seconds(1), "five calls in a hundred stall for a second")
        #expect(hedged.requests > hedged.calls, "slow calls were hedged")
        #expect(hedged.requests <= hedged.calls + hedged.calls / 10, "the default budget: at most 10 % extra")
        // How much shorter the tail gets is a speed, measured by `pipeline-bench --suite
        // resilience`: under the whole suite on two cores, fast calls pass the 25 ms delay too
        // and spend the budget a stalled one needed.
    }
}

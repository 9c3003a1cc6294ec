import Foundation
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import HTTPPipelineURLSession
#endif

@Suite struct LoopbackServerTimestampTests {
    @Test func requestsCarryMonotonicArrivalTimesInArrivalOrder() async throws {
        let server = LoopbackServer()
        server.route("GET", "/slow", .init(delay: .milliseconds(30)))
        try server.start()
        defer { server.stop() }
        let before = ContinuousClock.now
        for _ in 0..<2 {
            _ = try await URLSession.shared.data(for: URLRequest(url: server.baseURL.appendingPathComponent("slow")))
        }
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests[0].receivedAt >= before)
        // The second request was sent only after the first answer, which waited 30 ms.
        #expect(requests[0].receivedAt.duration(to: requests[1].receivedAt) >= .milliseconds(30))
    }
}

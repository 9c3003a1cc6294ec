import Foundation
import HTTPPipeline
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// Retry over `URLSessionTransport` against the loopback server.
@Suite struct RetryWireTests {
    @Test func flakyRouteRecoversAfterTwoBackoffsAndAPostWithoutAKeyIsSentOnce() async throws {
        let server = LoopbackServer()
        let hits = Locked(0)
        server.route("GET", "/flaky") { _ in
            let hit = hits.withLock {
                $0 += 1
                return $0
            }
            return hit <= 2 ? .init(status: 503) : .init(body: Data("ok".utf8))
        }
        server.route("POST", "/orders", .init(status: 503))
        try server.start()
        defer { server.stop() }
        let clock = ManualClock()
        let pipeline = Pipeline(transport: URLSessionTransport()) {
            RetryMiddleware(policy: exactPolicy(attempts: 3), clock: clock)
        }
        let url = server.baseURL.appendingPathComponent("flaky")
        let (result, waits) = await drive(clock) { try await pipeline.send(HTTPRequest(url: url)) }
        let response = try result.get()
        #expect(response.status == 200)
        #expect(String(decoding: try await response.bytes(), as: UTF8.self) == "ok")
        #expect(waits == [.seconds(1), .seconds(2)])

        let post = HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("orders"), body: HTTPBody(Data("{}".utf8)))
        #expect(try await pipeline.send(post).status == 503)
        #expect(server.requests.filter { $0.path == "/orders" }.count == 1)
        #expect(server.requests.filter { $0.path == "/flaky" }.count == 3)
    }
}

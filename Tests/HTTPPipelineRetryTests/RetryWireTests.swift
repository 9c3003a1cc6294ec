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

    @Test func aDownloadCutMidBodyOverURLSessionIsRetriedUntilItArrivesWhole() async throws {
        // FoundationNetworking reported the cut as URLError -1 ("transfer closed with 990 bytes
        // remaining to read"), which no policy read as transient: one attempt, then the error.
        let server = LoopbackServer()
        let hits = Locked(0)
        let whole = Data(repeating: 0x61, count: 1_000)
        server.route("GET", "/download") { _ in
            let hit = hits.withLock {
                $0 += 1
                return $0
            }
            return hit <= 2 ? .init(body: .abort(after: 10, of: .bytes(whole))) : .init(body: whole)
        }
        try server.start()
        defer { server.stop() }
        // A manual clock the test never moves: the policy's deadline cannot pass between attempts.
        let pipeline = Pipeline(transport: URLSessionTransport()) {
            RetryMiddleware(policy: immediatePolicy(attempts: 3), clock: ManualClock())
        }
        let response = try await pipeline.send(HTTPRequest(url: server.baseURL.appendingPathComponent("download")))
        #expect(try await response.bytes() == whole)
        #expect(hits.value == 3)
    }
}

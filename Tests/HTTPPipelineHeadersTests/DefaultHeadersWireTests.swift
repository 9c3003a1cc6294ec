import Foundation
import HTTPPipeline
import HTTPPipelineHeaders
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// Default headers on a real wire: what the server receives.
@Suite struct DefaultHeadersWireTests {
    @Test func serverReceivesDefaultHeadersAndNeverAnInjectedOne() async throws {
        let server = LoopbackServer()
        server.route("GET", "/books", .init())
        try server.start()
        defer { server.stop() }
        let attack = Locked(false)
        let pipeline = try Pipeline(transport: URLSessionTransport()) {
            try DefaultHeaders([
                .fixed("User-Agent", "Shelf/2.3"),
                .computed("X-Trace") { _ in attack.value ? "t\r\nX-Injected: yes" : "t-1" },
            ])
        }
        let request = HTTPRequest(url: server.baseURL.appendingPathComponent("books"))
        _ = try await pipeline.send(request)
        attack.withLock { $0 = true }
        await #expect(throws: HeaderError.self) { _ = try await pipeline.send(request) }

        #expect(server.requests.count == 1)
        let received = try #require(server.requests.first)
        #expect(received.header("User-Agent") == "Shelf/2.3")
        #expect(received.header("X-Trace") == "t-1")
        #expect(received.header("X-Injected") == nil)
    }
}

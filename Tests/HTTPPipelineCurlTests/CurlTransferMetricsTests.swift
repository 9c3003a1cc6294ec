import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import Testing

/// `CurlTransport`'s transfer metrics, from libcurl's timers, against a loopback server.
@Suite struct CurlTransferMetricsTests {
    @Test func aDelayedHeadShowsAsTimeToFirstByteAndTheSecondRequestAsReused() async throws {
        let server = LoopbackServer()
        server.route("GET", "/slow", .init(body: Data(count: 5_000), delay: .milliseconds(200)))
        server.route("GET", "/fast", .init(body: Data(count: 10)))
        try server.start()
        defer { server.stop() }
        let transport = CurlTransport()
        let url = server.baseURL.appendingPathComponent("slow")

        let first = try await transport.send(HTTPRequest(url: url))
        _ = try await first.body.collect(upTo: 1 << 20)
        var later: [HTTPTransferMetrics] = []
        for _ in 0..<4 {
            let response = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("fast")))
            _ = try await response.body.collect(upTo: 1 << 20)
            later.append(try #require(response.transferMetrics))
        }
        let metrics = try #require(first.transferMetrics)

        #expect(try #require(metrics.firstByte) >= .milliseconds(190))
        #expect(try #require(metrics.lastByte) >= metrics.firstByte ?? .zero)
        #expect(try #require(metrics.connect) <= metrics.requestStart ?? .zero)
        #expect(metrics.secureConnect == nil, "http: no handshake")
        #expect(metrics.reusedConnection == false)
        // Kept alive, the connection is reused (one of four at least, however busy the machine);
        // a reused one reports no connect.
        #expect(later.contains { $0.reusedConnection == true })
        #expect(later.allSatisfy { $0.reusedConnection != true || $0.connect == nil })
        #expect(metrics.bodyBytesReceived == 5_000)
        #expect(metrics.headBytesReceived ?? 0 > 30)
        #expect(metrics.bytesSent ?? 0 > 30)
        #expect(metrics.httpVersion == "HTTP/1.1")
        #expect(metrics.remoteAddress == "127.0.0.1")
        #expect(metrics.remotePort == server.baseURL.port)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// `URLSessionTransport`'s transfer metrics, measured on this side of URLSession, against a
/// loopback server: the head's and the last byte's times, the bytes handed over and sent.
@Suite struct URLSessionTransferMetricsTests {
    @Test func aDelayedHeadShowsAsTimeToFirstByteAndTheBodyIsCounted() async throws {
        let server = LoopbackServer()
        server.route("POST", "/slow", .init(body: Data(count: 300_000), delay: .milliseconds(200)))
        try server.start()
        defer { server.stop() }
        var request = HTTPRequest(method: .post, url: server.baseURL.appendingPathComponent("slow"))
        request.body = HTTPBody(Data(count: 1_234))

        let response = try await URLSessionTransport().send(request)
        let body = try await response.body.collect(upTo: 1 << 20)
        let metrics = try #require(response.transferMetrics)

        #expect(body.count == 300_000)
        #expect(try #require(metrics.firstByte) >= .milliseconds(190))
        #expect(try #require(metrics.lastByte) >= metrics.firstByte ?? .zero)
        #expect(metrics.bodyBytesDecoded == 300_000)
        #expect(metrics.bytesSent == 1_234)
        #expect(metrics.nameLookup == nil && metrics.connect == nil && metrics.reusedConnection == nil)
    }
}

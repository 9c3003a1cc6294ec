import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineLogging
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

/// Logging shows each attempt's phases from the transport's metrics, buffered or streamed.
@Suite struct LoggedPhasesTests {
    @Test(arguments: [1_000, 600_000])
    func eachAttemptsLineShowsWhereItsTimeWent(bodySize: Int) async throws {
        let server = LoopbackServer()
        server.route("GET", "/slow", .init(body: Data(count: bodySize), delay: .milliseconds(100)))
        try server.start()
        defer { server.stop() }
        let sink = InMemoryLogSink()
        let client = Pipeline(transport: CurlTransport()) { LoggingMiddleware(level: .basic, sink: sink) }

        let response = try await client.send(
            HTTPRequest(
                url: server.baseURL.appendingPathComponent("slow").appending(queryItems: [
                    .init(name: "token", value: "s3cr3t")
                ])))
        _ = try await response.body.collect(upTo: 1 << 20)

        let line = try #require(sink.records.first?.formatted)
        #expect(line.contains(", connect ") || line.contains("[connect "), "\(line)")
        #expect(line.contains(", first byte "), "a head 100 ms late (at least; a loaded machine adds): \(line)")
        #expect(line.contains("HTTP/1.1]"))
        #expect(!line.contains("s3cr3t"))
        #expect(sink.records.first?.transferMetrics?.firstByte ?? .zero >= .milliseconds(90))
    }
}

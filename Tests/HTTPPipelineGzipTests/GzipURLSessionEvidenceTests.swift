import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// What URLSession hands up when a body's size is no evidence, or when the bytes are not what
/// their label says.
@Suite(.serialized) struct GzipURLSessionEvidenceTests {
    let server = LoopbackServer()

    init() throws {
        try server.start()
    }

    func send(_ path: String) async throws -> (data: Data, response: HTTPResponseHead) {
        let pipeline = Pipeline(transport: URLSessionTransport()) { GzipMiddleware() }
        let response = try await pipeline.send(HTTPRequest(url: server.baseURL.appendingPathComponent(path)))
        return (try await response.bytes(), response.head)
    }

    @Test(
        "A body that compresses to exactly its own size arrives decoded over URLSession, though its Content-Length matches",
        arguments: [("gzip", Deflater.Format.gzip), ("deflate", .zlib)])
    func aBodyCompressingToItsOwnSizeArrivesDecoded(_ coding: String, _ format: Deflater.Format) async throws {
        defer { server.stop() }
        let plain = try Support.bodyCompressingToItsOwnSize(format)
        let wire = try Deflater.compress(plain, format: format)
        server.route("GET", "/token", .init(headers: [("Content-Encoding", coding)], body: wire))
        let (data, response) = try await send("token")
        #expect(data == plain)
        #expect(response.fields["Content-Encoding"] == nil)
        #expect(response.fields["Content-Length"] == String(plain.count))
    }

    @Test(
        "Over URLSession, the first range of a gzip body arrives inflated by the session, under a head that no longer claims gzip"
    )
    func theFirstRangeArrivesInflatedByURLSessionWithAPlainHead() async throws {
        defer { server.stop() }
        let body = try Support.fixture("python-gzip.json.gz")
        let part = body.prefix(100)
        let headers = [("Content-Encoding", "gzip"), ("Content-Range", "bytes 0-99/\(body.count)")]
        server.route("GET", "/part", .init(status: 206, headers: headers, body: Data(part)))
        let (data, response) = try await send("part")
        // curl inflates the range as far as it goes and does not report the cut-off stream.
        #expect(data == (try Support.sample()).prefix(data.count))
        #expect(response.status == 206)
        #expect(response.fields["Content-Encoding"] == nil)
        #expect(response.fields["Content-Range"] == "bytes 0-99/\(body.count)")
    }

    @Test(
        "Compressed bytes that are not what their gzip label says are a GzipError over URLSession too, which refuses them itself, with or without a Content-Length",
        arguments: [false, true])
    func urlSessionRefusesGarbageUnderAGzipLabelItself(_ chunked: Bool) async throws {
        defer { server.stop() }
        // Raw deflate: curl accepts a zlib stream under a gzip label (and inflates it), not this.
        let body = try Support.fixture("python-raw-deflate.json.deflate")
        var raw = Data("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nConnection: close\r\n".utf8)
        if chunked {
            raw += Data("Transfer-Encoding: chunked\r\n\r\n\(String(body.count, radix: 16))\r\n".utf8)
            raw += body + Data("\r\n0\r\n\r\n".utf8)
        } else {
            raw += Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        server.route("GET", "/garbage", .raw(raw))
        await #expect(throws: GzipError.self) { try await send("garbage") }
    }
}

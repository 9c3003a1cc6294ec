import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// Over `URLSessionTransport`, which inflates gzip and deflate itself, against the loopback
/// server serving real compressed bytes: every body is decoded exactly once.
@Suite(.serialized) struct GzipURLSessionTests {
    let server = LoopbackServer()

    init() throws {
        try server.start()
    }

    func send(_ path: String) async throws -> (data: Data, response: HTTPResponseHead, belowDecoder: BodyRecorder) {
        let belowDecoder = BodyRecorder("below")
        let pipeline = Pipeline(transport: URLSessionTransport()) {
            GzipMiddleware()
            belowDecoder
        }
        let response = try await pipeline.send(HTTPRequest(url: server.baseURL.appendingPathComponent(path)))
        return (try await response.bytes(), response.head, belowDecoder)
    }

    @Test func aGzipBodyServedOverURLSessionArrivesDecodedExactlyOnce() async throws {
        defer { server.stop() }
        let sample = try Support.sample()
        let body = try Support.fixture("gnu-gzip-name.json.gz")
        server.route(
            "GET", "/books",
            .init(headers: [("Content-Encoding", "gzip"), ("Content-Type", "application/json")], body: body))
        let (data, response, below) = try await send("books")
        #expect(data == sample)
        #expect(response.fields["Content-Encoding"] == nil)
        #expect(response.fields["Content-Length"] == String(sample.count))
        #expect(server.requests.first?.header("Accept-Encoding") == "gzip, deflate")
        // What the transport handed up: URLSession had already inflated it and kept the header.
        #expect(below.seen.value.map(\.bytes) == [sample.count])
        #expect(below.seen.value.map(\.encoding) == ["gzip"])
    }

    @Test func aGzipOfAGzipServedWithOneCodingArrivesAsTheInnerGzipNotDecodedTwice() async throws {
        defer { server.stop() }
        let inner = try Support.fixture("python-gzip.json.gz")
        let outer = try Deflater.compress(inner, format: .gzip)
        server.route("GET", "/archive", .init(headers: [("Content-Encoding", "gzip")], body: outer))
        let (data, response, _) = try await send("archive")
        #expect(data == inner)
        #expect(response.fields["Content-Encoding"] == nil)
    }

    @Test func aZlibDeflateBodyServedOverURLSessionArrivesDecodedExactlyOnce() async throws {
        defer { server.stop() }
        let body = try Support.fixture("python-zlib.json.zz")
        server.route("GET", "/deflated", .init(headers: [("Content-Encoding", "deflate")], body: body))
        let (data, _, _) = try await send("deflated")
        #expect(data == (try Support.sample()))
    }

    @Test func aChunkedGzipBodyWithoutContentLengthArrivesDecodedExactlyOnce() async throws {
        defer { server.stop() }
        let body = try Support.fixture("pigz.json.gz")
        var raw = Data(
            "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".utf8)
        raw += Data(String(body.count, radix: 16).utf8) + Data("\r\n".utf8) + body + Data("\r\n0\r\n\r\n".utf8)
        server.route("GET", "/chunked", .raw(raw))
        let (data, response, _) = try await send("chunked")
        #expect(data == (try Support.sample()))
        #expect(response.fields["Content-Encoding"] == nil)
    }
}

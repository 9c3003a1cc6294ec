import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import Testing

/// Range responses: a part of a compressed representation cannot be decoded on its own, so it
/// is handed on as it came.
@Suite struct GzipPartialContentTests {
    func range(_ body: Data, _ lower: Int, _ upper: Int) -> (Data, [String: String]) {
        let part = Data(body[lower...upper])
        let headers = [
            "Content-Encoding": "gzip", "Content-Range": "bytes \(lower)-\(upper)/\(body.count)",
            "Content-Length": String(part.count), "Content-Type": "application/json",
        ]
        return (part, headers)
    }

    func send(status: Int, _ body: Data, headers: [String: String]) async throws -> (Data, HTTPResponseHead) {
        let transport = ScriptedTransport([.status(status, headers: headers, body: body)])
        let response = try await Pipeline(transport: transport) { GzipMiddleware() }.send(Support.request())
        return (try await response.bytes(), response.head)
    }

    @Test("A 206 carrying the first range of a gzip body is handed on undecoded, its head untouched")
    func theFirstRangeOfAGzipBodyIsHandedOnUndecoded() async throws {
        let (part, headers) = range(try Support.fixture("python-gzip.json.gz"), 0, 99)
        let (data, response) = try await send(status: 206, part, headers: headers)
        #expect(data == part)
        #expect(response.status == 206)
        #expect(response.fields["Content-Encoding"] == "gzip")
        #expect(response.fields["Content-Range"] == headers["Content-Range"])
        #expect(response.fields["Content-Length"] == "100")
    }

    @Test("A 206 carrying a middle range of a gzip body keeps its Content-Encoding: the part is not plain")
    func aMiddleRangeKeepsItsContentEncoding() async throws {
        let (part, headers) = range(try Support.fixture("python-gzip.json.gz"), 100, 199)
        let (data, response) = try await send(status: 206, part, headers: headers)
        #expect(data == part)
        #expect(response.fields["Content-Encoding"] == "gzip")
    }

    @Test("A multipart/byteranges 206, which has no Content-Range of its own, is handed on undecoded")
    func aMultipartRangeResponseIsHandedOnUndecoded() async throws {
        let body = Data("--b\r\nContent-Range: bytes 0-1/491\r\n\r\n\u{1f}\u{8b}\r\n--b--\r\n".utf8)
        let headers = [
            "Content-Encoding": "gzip", "Content-Type": "multipart/byteranges; boundary=b",
            "Content-Length": String(body.count),
        ]
        let (data, response) = try await send(status: 206, body, headers: headers)
        #expect(data == body)
        #expect(response.fields["Content-Encoding"] == "gzip")
    }

    @Test("A 206 carrying the first range of a .gz download is handed on undecoded, even with downloads decoded")
    func theFirstRangeOfAGzipDownloadIsHandedOnUndecoded() async throws {
        let body = try Support.fixture("gnu-gzip-name.json.gz")
        let part = body.prefix(100)
        let headers = ["Content-Type": "application/gzip", "Content-Range": "bytes 0-99/\(body.count)"]
        let transport = ScriptedTransport([.status(206, headers: headers, body: Data(part))])
        let pipeline = Pipeline(transport: transport) { GzipMiddleware(.default.decodingGzipDownloads()) }
        let response = try await pipeline.send(Support.request())
        #expect(try await response.bytes() == part)
        #expect(response.fields["Content-Type"] == "application/gzip")
    }

    @Test("A 416 whose Content-Range only states the full length has its gzip error page decoded")
    func aRangeNotSatisfiableErrorPageIsDecoded() async throws {
        let page = Data(#"{"error":"range not satisfiable"}"#.utf8)
        let body = try Deflater.compress(page, format: .gzip)
        let headers = [
            "Content-Encoding": "gzip", "Content-Range": "bytes */491", "Content-Length": String(body.count),
        ]
        let (data, response) = try await send(status: 416, body, headers: headers)
        #expect(data == page)
        #expect(response.fields["Content-Encoding"] == nil)
    }
}

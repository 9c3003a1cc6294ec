import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// `.repeated`: one chunk sent again and again under one `Content-Length`, a large body the server
/// never holds whole.
@Suite struct LoopbackServerRepeatedBodyTests {
    /// 1,000 bytes that differ from their neighbours, so a copy out of place or cut short shows.
    static let pattern = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 256) })

    @Test("A repeated body arrives whole over a raw socket under one Content-Length, and the connection stays usable")
    func repeatedBodyArrivesWholeOverARawSocket() throws {
        let server = try Self.startedServer()
        defer { server.stop() }
        server.route("GET", "/big", .init(headers: [("X-Kind", "repeated")], body: .repeated(Self.pattern, count: 300)))
        server.route("GET", "/next", .init(body: Data("next".utf8)))
        let client = try LoopbackRawClient(port: server.port)

        try client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        let big = try client.readResponse()
        try client.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        let next = try client.readResponse()

        #expect(big.status == 200)
        #expect(big.header("X-Kind") == "repeated")
        #expect(big.header("Content-Length") == "300000")
        #expect(big.header("Transfer-Encoding") == nil)
        #expect(big.body.count == 300_000)
        #expect(Data(big.body) == Data(repeatElement(Self.pattern, count: 300).joined()))
        #expect(next.body == Array("next".utf8), "the same connection served the next request")
        #expect(server.connectionsAccepted == 1)
    }

    @Test("A HEAD request to a repeated body gets its full Content-Length and no body")
    func headGetsTheLengthAlone() throws {
        let server = try Self.startedServer()
        defer { server.stop() }
        server.route("GET", "/big", .init(body: .repeated(Self.pattern, count: 50)))
        let client = try LoopbackRawClient(port: server.port)

        try client.send("HEAD /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let bytes = try client.readUntilClosed()

        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("Content-Length: 50000\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"), "nothing follows the head")
    }

    @Test("A repeated body of no copies, or of an empty chunk, is an empty body with Content-Length 0")
    func noCopiesIsAnEmptyBody() throws {
        let server = try Self.startedServer()
        defer { server.stop() }
        server.route("GET", "/none", .init(body: .repeated(Self.pattern, count: 0)))
        server.route("GET", "/negative", .init(body: .repeated(Self.pattern, count: -3)))
        server.route("GET", "/empty", .init(body: .repeated(Data(), count: 10)))
        let client = try LoopbackRawClient(port: server.port)

        for path in ["/none", "/negative", "/empty"] {
            try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200, "\(path)")
            #expect(response.header("Content-Length") == "0", "\(path)")
            #expect(response.body.isEmpty, "\(path)")
        }
    }

    @Test("A repeated body cut short promises every copy, then sends only the bytes before the cut and closes")
    func cutRepeatedBodyPromisesEveryCopy() throws {
        let server = try Self.startedServer()
        defer { server.stop() }
        server.route("GET", "/cut", .init(body: .abort(after: 2_500, of: .repeated(Self.pattern, count: 10))))
        let client = try LoopbackRawClient(port: server.port)

        try client.send("GET /cut HTTP/1.1\r\nHost: x\r\n\r\n")
        let bytes = try client.readUntilClosed()

        let headEnd = try #require(bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound)
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        #expect(head.contains("Content-Length: 10000\r\n"))
        #expect(Data(bytes[headEnd...]) == Data(repeatElement(Self.pattern, count: 3).joined()).prefix(2_500))
    }

    @Test("A large repeated body streams through URLSessionTransport with its length, every byte in order")
    func largeRepeatedBodyStreamsThroughURLSessionTransport() async throws {
        let server = try Self.startedServer()
        defer { server.stop() }
        let chunk = Data((0..<(64 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        let count = 256  // 16 MiB
        server.route("GET", "/big", .init(body: .repeated(chunk, count: count)))
        let transport = URLSessionTransport()

        let response = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("big")))

        #expect(response.status == 200)
        #expect(response.fields["Content-Length"] == "\(chunk.count * count)")
        #expect(response.body.length == chunk.count * count)
        #expect(response.body.bufferedData == nil, "longer than the buffering limit, so it streams")
        var offset = 0
        var mismatchAt: Int?
        for try await piece in response.body {
            var rest = piece[...]
            while !rest.isEmpty, mismatchAt == nil {
                let at = offset % chunk.count
                let take = min(rest.count, chunk.count - at)
                let start = chunk.startIndex + at
                if rest.prefix(take) != chunk[start..<(start + take)] { mismatchAt = offset }
                rest = rest.dropFirst(take)
                offset += take
            }
        }
        #expect(mismatchAt == nil, "the bytes differ from offset \(mismatchAt ?? -1) on")
        #expect(offset == chunk.count * count, "every copy arrived")
    }

    private static func startedServer() throws -> LoopbackServer {
        let server = LoopbackServer()
        try server.start()
        return server
    }
}

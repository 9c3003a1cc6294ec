import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streamed response bodies on real sockets: chunked, dripped, cut short and never-ending.
@Suite struct LoopbackServerStreamingTests {
    // MARK: Through URLSessionTransport

    @Test("A chunked body arrives whole through URLSessionTransport")
    func chunkedBodyArrivesWhole() async throws {
        let server = try startedServer()
        defer { server.stop() }
        let chunks = [Data("first ".utf8), Data(repeating: 0x62, count: 70_000), Data(" last".utf8)]
        server.route("GET", "/chunked", .init(headers: [("X-Kind", "chunked")], body: .chunked(chunks)))

        let response = try await send(server, "/chunked")

        #expect(response.status == 200)
        #expect(response.fields["X-Kind"] == "chunked")
        #expect(try await response.body.collect(upTo: 1 << 20) == chunks.reduce(Data(), +))
    }

    @Test("A drip of five chunks arrives whole and takes at least the four pauses between them")
    func dripArrivesWholeAndTakesTheDripTime() async throws {
        let server = try startedServer()
        defer { server.stop() }
        let chunks = (1...5).map { Data("chunk \($0);".utf8) }
        let pause = Duration.milliseconds(40)
        server.route("GET", "/drip", .init(body: .chunked(chunks, every: pause)))

        let clock = ContinuousClock()
        let started = clock.now
        let data = try await send(server, "/drip").body.collect(upTo: 1 << 20)
        let took = clock.now - started

        #expect(data == chunks.reduce(Data(), +))
        #expect(took >= pause * 4, "took \(took)")
    }

    @Test("A body cut short of its Content-Length is URLSession's lost connection, not a short success")
    func contentLengthAbortIsAnError() async throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("GET", "/cut", .init(body: .abort(after: 10, of: .bytes(Data(repeating: 0x61, count: 1_000)))))

        let error = await #expect(throws: URLError.self) { try await send(server, "/cut") }

        expectTransferClosed(error)
    }

    @Test("A chunked body cut before its last chunk is URLSession's lost connection, not a short success")
    func chunkedAbortIsAnError() async throws {
        let server = try startedServer()
        defer { server.stop() }
        let chunks = [Data("hello".utf8), Data("world".utf8)]
        server.route("GET", "/cut", .init(body: .abort(after: 10, of: .chunked(chunks))))

        // The head arrives whole, so the transport returns; the cut is thrown by the read that meets it.
        let response = try await send(server, "/cut")
        let error = await #expect(throws: URLError.self) { try await response.body.collect(upTo: 1 << 20) }

        expectTransferClosed(error)
    }

    @Test("An endless body ends when its client goes away: the server notices and its connection ends")
    func endlessBodyEndsWhenTheClientGoesAway() async throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route(
            "GET", "/endless",
            .init(body: .endless(chunk: Data(repeating: 0x65, count: 1_024), every: .milliseconds(5))))
        // A raw socket, so the test is about the server alone; URLSessionTransport's own
        // cancellation of a streamed body is tested in URLSessionTransportStreamingTests.
        let client = try LoopbackRawClient(port: server.port)
        try client.send("GET /endless HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(client.isReadable(within: .seconds(10)), "the endless body never started")
        #expect(server.openConnections == 1)
        client.close()

        #expect(await eventually(within: .seconds(10)) { server.openConnections == 0 })
        #expect(server.requests.count == 1)
        #expect(stopReturns(server, within: .seconds(1)), "stop() had not returned after 1 s")
    }

    @Test("A delayed answer's connection ends when its client goes away during the delay, not when the delay ends")
    func aDelayedAnswerEndsWhenTheClientGoesAway() async throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("GET", "/late", .init(body: Data("late".utf8), delay: .seconds(3_600)))
        let client = try LoopbackRawClient(port: server.port)
        try client.send("GET /late HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await eventually(within: .seconds(60)) { server.requests.count == 1 })
        #expect(server.openConnections == 1)
        client.close()

        #expect(await eventually(within: .seconds(60)) { server.openConnections == 0 })
    }

    // MARK: On the wire

    @Test("A chunked body is framed on the wire as hex sizes, the chunks and one last empty chunk")
    func chunkedFramingBytesAreExact() throws {
        let server = try startedServer()
        defer { server.stop() }
        let long = String(repeating: "x", count: 26)
        let chunks = [Data("hello".utf8), Data(), Data(long.utf8)]
        server.route("GET", "/chunked", .init(body: .chunked(chunks)))
        let client = try LoopbackRawClient(port: server.port)

        try client.send("GET /chunked HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let bytes = try client.readUntilClosed()

        let expected =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "5\r\nhello\r\n1a\r\n\(long)\r\n0\r\n\r\n"
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test(
        "An abort sends a complete-looking head, the promised length or the chunk's size line, only the bytes before the cut, then closes"
    )
    func abortFramingBytesAreExact() throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("GET", "/length", .init(body: .abort(after: 4, of: .bytes(Data("0123456789".utf8)))))
        server.route(
            "GET", "/chunked", .init(body: .abort(after: 7, of: .chunked([Data("hello".utf8), Data("world".utf8)]))))
        server.route("GET", "/boundary", .init(body: .abort(after: 5, of: .chunked([Data("hello".utf8)]))))

        let replies = try ["/length", "/chunked", "/boundary"].map { path in
            let client = try LoopbackRawClient(port: server.port)
            try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            return String(decoding: try client.readUntilClosed(), as: UTF8.self)
        }

        #expect(
            replies == [
                "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: keep-alive\r\n\r\n0123",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n5\r\nhello\r\n5\r\nwo",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n5\r\nhello\r\n",
            ])
    }

    @Test("A chunked body keeps the connection alive for the next request, and a HEAD request gets its head alone")
    func chunkedBodyKeepsTheConnectionAlive() throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("GET", "/chunked", .init(body: .chunked([Data("abc".utf8)], every: .milliseconds(1))))
        let client = try LoopbackRawClient(port: server.port)

        try client.send("HEAD /chunked HTTP/1.1\r\nHost: x\r\n\r\nGET /chunked HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readResponse(bodyExpected: false)
        try client.send("GET /chunked HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let rest = String(decoding: try client.readUntilClosed(), as: UTF8.self)

        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(head.header("Connection") == "keep-alive")
        let keptAlive =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        let closing = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        #expect(rest == keptAlive + closing)
        #expect(server.connectionsAccepted == 1)
    }

    @Test(
        "stop() returns within a second while an endless body streams to a reading client and to one that never reads")
    func stopReturnsWhileEndlessBodiesStream() async throws {
        let server = try startedServer()
        server.route("GET", "/endless", .init(body: .endless(chunk: Data(repeating: 0x65, count: 4_096), every: .zero)))
        server.route("GET", "/stalled", .init(body: .endless(chunk: Data(), every: .milliseconds(10))))
        let reading = try LoopbackRawClient(port: server.port)
        try reading.send("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        let stalled = try LoopbackRawClient(port: server.port)
        try stalled.send("GET /stalled HTTP/1.1\r\nHost: x\r\n\r\n")
        let unread = try LoopbackRawClient(port: server.port)
        try unread.send("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually(within: .seconds(10)) { server.requests.count == 3 })
        #expect(reading.isReadable(within: .seconds(1)), "the endless body streams")

        let stopped = stopReturns(server, within: .seconds(1))

        #expect(stopped, "stop() had not returned after 1 s")
        #expect(server.openConnections == 0)
        let stalledReply = String(decoding: try stalled.readUntilClosed(), as: UTF8.self)
        #expect(stalledReply.hasSuffix("Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n"), "a head alone")
        #expect(throws: Never.self, "the server closed the connection") { _ = try unread.readUntilClosed() }
    }

    // MARK: Helpers

    /// Darwin reports a response cut short as `networkConnectionLost`; FoundationNetworking on
    /// Linux passes libcurl's message on under `URLError.unknown` (libcurl 7.88: "transfer closed
    /// with 990 bytes remaining to read" for a Content-Length body, "transfer closed with
    /// outstanding read data remaining" for a chunked one), which the transport reads as
    /// `networkConnectionLost` with the message kept.
    func expectTransferClosed(_ error: URLError?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error?.code == .networkConnectionLost, "\(String(describing: error))", sourceLocation: sourceLocation)
        #if canImport(FoundationNetworking)
        #expect(
            error?.localizedDescription.hasPrefix("transfer closed with") == true,
            "\(String(describing: error))", sourceLocation: sourceLocation)
        #endif
    }

    func startedServer() throws -> LoopbackServer {
        let server = LoopbackServer()
        try server.start()
        return server
    }

    func send(_ server: LoopbackServer, _ path: String) async throws -> HTTPResponse {
        let url = try #require(URL(string: server.baseURL.absoluteString + path))
        return try await URLSessionTransport().send(HTTPRequest(url: url))
    }
}

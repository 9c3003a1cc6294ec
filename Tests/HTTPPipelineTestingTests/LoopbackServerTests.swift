import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serialized: the leak test counts this process's descriptors and threads.
@Suite(.serialized) struct LoopbackServerTests {
    // MARK: Routing and responses

    @Test func routeAnswersWithItsStatusHeadersAndBodyBytes() async throws {
        let server = try startedServer()
        defer { server.stop() }
        let bytes = Data([0, 1, 2, 0xFF, 0x0D, 0x0A])
        server.route("GET", "/blob", .init(status: 201, headers: [("X-Trace", "abc")], body: bytes))

        let (data, response) = try await get(server, "/blob")

        #expect(response.statusCode == 201)
        #expect(response.value(forHTTPHeaderField: "X-Trace") == "abc")
        #expect(data == bytes)
    }

    @Test func duplicateResponseHeadersAreSentInOrderWithContentLengthAdded() throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route(
            "GET", "/login",
            .init(
                headers: [("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")],
                body: Data("hello".utf8)
            ))
        let client = try LoopbackRawClient(port: server.port)

        try client.send("GET /login HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()

        #expect(response.headers.map(\.name) == ["Set-Cookie", "Set-Cookie", "Content-Length", "Connection"])
        #expect(response.headers.map(\.value) == ["a=1", "b=2", "5", "keep-alive"])
        #expect(response.body == Array("hello".utf8))
    }

    @Test func unknownRouteGets404WithAnEmptyBody() async throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("GET", "/known", .init())

        let (data, response) = try await get(server, "/unknown")

        #expect(response.statusCode == 404)
        #expect(data.isEmpty)
        #expect(server.requests.map(\.path) == ["/unknown"])
    }

    @Test func laterRouteReplacesEarlierAndTheQueryIsIgnoredForMatching() async throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("GET", "/greet", .init(body: Data("first".utf8)))
        server.route("GET", "/greet") { request in
            .init(body: Data("hello \(request.query ?? "")".utf8))
        }

        let (data, _) = try await get(server, "/greet?name=ada")

        #expect(String(decoding: data, as: UTF8.self) == "hello name=ada")
    }

    @Test func rawResponseBytesAreDeliveredVerbatimThenTheConnectionCloses() throws {
        let server = try startedServer()
        defer { server.stop() }
        let truncated = Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789".utf8)
        server.route("GET", "/truncated", .raw(truncated))
        let client = try LoopbackRawClient(port: server.port)

        try client.send("GET /truncated HTTP/1.1\r\nHost: x\r\n\r\n")

        #expect(try client.readUntilClosed() == Array(truncated))
    }

    @Test func headRequestIsAnsweredByTheGetRouteWithoutTheBody() throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("GET", "/doc", .init(body: Data("hello".utf8)))
        let client = try LoopbackRawClient(port: server.port)

        try client.send("HEAD /doc HTTP/1.1\r\nHost: x\r\n\r\nGET /doc HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readResponse(bodyExpected: false)
        let get = try client.readResponse()

        #expect(head.header("Content-Length") == "5")
        #expect(get.body == Array("hello".utf8))
    }

    // MARK: Requests

    @Test func postIsRecordedWithMethodTargetHeadersAndBody() async throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("POST", "/books", .init(status: 201))
        var request = URLRequest(url: try #require(URL(string: server.baseURL.absoluteString + "/books?id=1")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("yes", forHTTPHeaderField: "X-Custom")
        request.httpBody = Data(#"{"title":"Dune"}"#.utf8)

        let (_, response) = try await send(request)

        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        let recorded = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(recorded.method == "POST")
        #expect(recorded.target == "/books?id=1")
        #expect(recorded.path == "/books")
        #expect(recorded.query == "id=1")
        #expect(recorded.header("x-custom") == "yes")
        #expect(recorded.headerValues("CONTENT-TYPE") == ["application/json"])
        #expect(recorded.body == Data(#"{"title":"Dune"}"#.utf8))
    }

    @Test func chunkedRequestBodyIsDecoded() throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("POST", "/upload", .init(status: 204))
        let client = try LoopbackRawClient(port: server.port)

        try client.send(
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
        )
        let response = try client.readResponse()

        #expect(response.status == 204)
        #expect(server.requests.first?.body == Data("hello world".utf8))
    }

    @Test func expectContinueGetsAnInterimResponseBeforeTheBodyIsSent() throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("PUT", "/file", .init())
        let client = try LoopbackRawClient(port: server.port)

        try client.send("PUT /file HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        let interim = try client.readResponse(bodyExpected: false)
        try client.send("hello")
        let final = try client.readResponse()

        #expect(interim.status == 100)
        #expect(final.status == 200)
        #expect(server.requests.first?.body == Data("hello".utf8))
    }

    @Test func bodyOfExactlyEightMebibytesIsAccepted() throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("PUT", "/big", .init(status: 204))
        let client = try LoopbackRawClient(port: server.port)
        let body = [UInt8](repeating: 0x61, count: 8 * 1024 * 1024)

        try client.send("PUT /big HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
        try client.send(body)
        let response = try client.readResponse()

        #expect(response.status == 204)
        #expect(server.requests.first?.body.count == body.count)
    }

    // MARK: Connections

    @Test func twoRequestsOnOneConnectionAreBothAnsweredOverOneAcceptedConnection() throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("GET", "/a", .init(body: Data("A".utf8)))
        server.route("GET", "/b", .init(body: Data("B".utf8)))
        let client = try LoopbackRawClient(port: server.port)

        try client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try client.readResponse()
        try client.send("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        let second = try client.readResponse()

        #expect(first.body == Array("A".utf8))
        #expect(second.body == Array("B".utf8))
        #expect(first.header("Connection") == "keep-alive")
        #expect(server.connectionsAccepted == 1)
    }

    @Test(arguments: [
        "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET / HTTP/1.0\r\n\r\n",
    ])
    func clientThatDoesNotKeepAliveGetsConnectionCloseAndAClosedConnection(request: String) throws {
        let server = try startedServer()
        defer { server.stop() }
        let client = try LoopbackRawClient(port: server.port)

        try client.send(request)
        let response = try client.readResponse()

        #expect(response.status == 404)
        #expect(response.header("Connection") == "close")
        #expect(try client.readUntilClosed().isEmpty)
    }

    @Test func concurrentRequestsToADelayedRouteAreServedInParallel() async throws {
        let server = try startedServer()
        defer { server.stop() }
        // A barrier: each request is held until all eight are being served at once, which only
        // connections served in parallel can reach. No wall-clock bound, so a loaded machine
        // cannot make it flaky.
        let inFlight = Locked(0)
        server.route("GET", "/slow") { _ in
            inFlight.withLock { $0 += 1 }
            // Up to 300 s: a stalled test (80 s, seen under the sanitizer) must still meet here.
            for _ in 0..<30_000 where inFlight.value < 8 {
                usleep(10_000)
            }
            return .init(status: inFlight.value >= 8 ? 200 : 503, delay: .milliseconds(20))
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 8
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }

        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let url = server.baseURL.appendingPathComponent("slow")
                    let (_, response) = try await session.data(for: URLRequest(url: url))
                    return (response as? HTTPURLResponse)?.statusCode ?? 0
                }
            }
            for try await status in group {
                #expect(status == 200)
            }
        }

        #expect(server.requests.count == 8)
    }

    // MARK: Malformed and oversized input

    @Test(arguments: MalformedRequest.all)
    func malformedRequestGets400AndServerKeepsServing(_ sample: MalformedRequest) async throws {
        let server = try startedServer()
        defer { server.stop() }
        server.route("GET", "/ok", .init(body: Data("fine".utf8)))

        try expectBadRequest(server, sample.bytes)
        let (data, response) = try await get(server, "/ok")

        #expect(response.statusCode == 200)
        #expect(data == Data("fine".utf8))
        #expect(server.requests.map(\.path) == ["/ok"])
    }

    @Test func oversizedHeadGets400() throws {
        let server = try startedServer()
        defer { server.stop() }
        let bigValue = String(repeating: "a", count: 20 * 1024)

        try expectBadRequest(server, Array("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(bigValue)\r\n\r\n".utf8))
    }

    @Test(arguments: ["8388609", "99999999999999"])
    func oversizedContentLengthGets400(length: String) throws {
        let server = try startedServer()
        defer { server.stop() }

        try expectBadRequest(server, Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n".utf8))
    }

    // MARK: Life cycle

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func stopClosesEverySocketEndsEveryThreadAndIsIdempotent() async throws {
        // Timeouts of an hour: a test stalled past the default 5 s would see the server close
        // the idle connections itself, before stop() is asked to.
        let server = LoopbackServer(timeouts: .init(idle: .seconds(3_600), request: .seconds(3_600)))
        try server.start()
        server.route("GET", "/", .init())
        let idle = try LoopbackRawClient(port: server.port)
        let kept = try LoopbackRawClient(port: server.port)
        try kept.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try kept.readResponse()
        let halfway = try LoopbackRawClient(port: server.port)
        try halfway.send("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
        halfway.close()
        #expect(await eventually { server.connectionsAccepted == 3 })
        let port = server.port
        // The accept thread and the idle and kept-alive connections' threads.
        #expect(try await eventually { try serverThreadNames(port: port).count == 3 })
        // The listening socket and the two connections still open on the server's side.
        let open = try serverSocketDescriptors(port: port)
        #expect(open.count == 3, "\(open)")

        server.stop()
        server.stop()

        #expect(try idle.readUntilClosed().isEmpty, "the server closed the idle connection")
        #expect(try kept.readUntilClosed().isEmpty, "the server closed the kept-alive connection")
        idle.close()
        kept.close()
        #expect(try await eventually { try serverSocketDescriptors(port: port).isEmpty })
        #expect(try await eventually { try serverThreadNames(port: port).isEmpty })
    }

    @Test func stopWhileADelayedRequestIsInFlightReturnsPromptly() async throws {
        let server = try startedServer()
        server.route("GET", "/slow", .init(delay: .seconds(3_600)))  // never answered before stop()
        let client = try LoopbackRawClient(port: server.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { server.requests.count == 1 })

        let elapsed = ContinuousClock().measure { server.stop() }

        #expect(elapsed < .seconds(1))
        #expect(try client.readUntilClosed().isEmpty, "the delayed request is abandoned")
    }

    @Test func startingTwiceOrAfterStopThrowsATypedError() throws {
        let server = try startedServer()
        #expect(server.port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")

        #expect(throws: LoopbackServer.Error.alreadyStarted) { try server.start() }
        server.stop()
        #expect(throws: LoopbackServer.Error.alreadyStopped) { try server.start() }
    }

    @Test func serverStopsWhenNoLongerReferenced() throws {
        var server: LoopbackServer? = try startedServer()
        let port = try #require(server?.port)
        _ = try LoopbackRawClient(port: port)

        server = nil

        #expect(throws: LoopbackRawClient.Failure.self) { try LoopbackRawClient(port: port) }
    }
}

// MARK: - Helpers

extension LoopbackServerTests {
    struct MalformedRequest: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }

        init(_ name: String, _ text: String) {
            self.name = name
            bytes = Array(text.utf8)
        }

        static let all: [MalformedRequest] = [
            .init("request line of one word", "GARBAGE\r\n\r\n"),
            .init("two spaces in request line", "GET /  HTTP/1.1\r\nHost: x\r\n\r\n"),
            .init("HTTP/2 version", "GET / HTTP/2.0\r\nHost: x\r\n\r\n"),
            .init("target without slash", "GET index.html HTTP/1.1\r\nHost: x\r\n\r\n"),
            .init("bare LF line endings", "GET / HTTP/1.1\nHost: x\n\n"),
            .init("bare CR in a field", "GET / HTTP/1.1\r\nHost: x\rY: z\r\n\r\n"),
            .init("space before colon", "GET / HTTP/1.1\r\nHost : x\r\n\r\n"),
            .init("obsolete line folding", "GET / HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\n"),
            .init("field without colon", "GET / HTTP/1.1\r\nNoColon\r\n\r\n"),
            .init("control character in value", "GET / HTTP/1.1\r\nX-A: a\u{1}b\r\n\r\n"),
            .init(
                "more than 100 fields",
                "GET / HTTP/1.1\r\n" + (0...100).map { "X-\($0): v\r\n" }.joined() + "\r\n"
            ),
            .init(
                "conflicting Content-Length", "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello"),
            .init("negative Content-Length", "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"),
            .init(
                "Content-Length with Transfer-Encoding",
                "POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            ),
            .init("Transfer-Encoding other than chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"),
            .init("chunk size not hex", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
            .init("chunk data too long", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n"),
            .init("chunk over 8 MiB", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n800001\r\n"),
        ]
    }

    func startedServer() throws -> LoopbackServer {
        let server = LoopbackServer()
        try server.start()
        return server
    }

    func get(_ server: LoopbackServer, _ pathAndQuery: String) async throws -> (Data, HTTPURLResponse) {
        let url = try #require(URL(string: server.baseURL.absoluteString + pathAndQuery))
        let (data, response) = try await send(URLRequest(url: url))
        return (data, try #require(response as? HTTPURLResponse))
    }

    func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await URLSession.shared.data(for: request)
    }

    /// Sends `bytes` on a new connection and expects `400`, `Connection: close` and a close.
    func expectBadRequest(_ server: LoopbackServer, _ bytes: [UInt8]) throws {
        let client = try LoopbackRawClient(port: server.port)
        try client.send(bytes)
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.header("Connection") == "close")
        #expect(try client.readUntilClosed().isEmpty)
    }

    /// How many sockets and pipes this process has open (timers and event descriptors of the
    /// concurrency runtime come and go on their own, so they are left out).
    /// This process's descriptors for TCP sockets whose local port is `port`: the server's
    /// listening socket and its side of every connection, never a client's. Counting only these
    /// keeps the check exact while other suites open and close sockets in parallel.
    func serverSocketDescriptors(port: Int) throws -> [String] {
        // procfs files report a size of 0; read them to the end rather than by their size.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp"))
        defer { try? handle.close() }
        let table = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        let localPort = String(format: ":%04X", port)
        let inodes = Set(
            table.split(separator: "\n").dropFirst().compactMap { line -> String? in
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1].hasSuffix(localPort) else { return nil }
                return "socket:[\(fields[9])]"
            })
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
            return target.map(inodes.contains) ?? false
        }
    }
}

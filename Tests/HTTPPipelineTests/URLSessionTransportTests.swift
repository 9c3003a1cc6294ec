import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSessionTransport` against a real HTTP/1.1 server on loopback.
@Suite struct URLSessionTransportTests {
    let server = LoopbackServer()
    let transport = URLSessionTransport()

    init() throws {
        try server.start()
    }

    func url(_ path: String) -> URL {
        server.baseURL.appendingPathComponent(path)
    }

    @Test func statusHeadersAndBodyBytesArriveExactly() async throws {
        let bytes = Data((0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) })
        server.route(
            "GET", "/bytes",
            .init(
                status: 203, headers: [("X-Answer", "42"), ("Content-Type", "application/octet-stream")], body: bytes))
        defer { server.stop() }
        let response = try await transport.send(HTTPRequest(url: url("bytes")))
        #expect(response.status == 203)
        #expect(response.fields["x-answer"] == "42")
        #expect(try await response.bytes() == bytes)
    }

    @Test func errorStatusesAreReturnedNotThrown() async throws {
        server.route("GET", "/broken", .init(status: 500, body: Data("oops".utf8)))
        defer { server.stop() }
        let response = try await transport.send(HTTPRequest(url: url("broken")))
        #expect(response.status == 500)
        #expect(try await response.bytes().text == "oops")
    }

    @Test func requestMethodHeadersAndBodyReachTheServer() async throws {
        server.route("POST", "/items", .init(status: 201))
        defer { server.stop() }
        let request = HTTPRequest(
            method: .post, url: url("items"),
            fields: [.contentType: "application/json", HTTPField.Name(unchecked: "X-Custom"): "yes"],
            body: HTTPBody(Data(#"{"name":"x"}"#.utf8)))
        let response = try await transport.send(request)
        let received = try #require(server.requests.first)
        #expect(response.status == 201)
        #expect(received.method == "POST")
        #expect(received.path == "/items")
        #expect(received.header("x-custom") == "yes")
        #expect(received.body == Data(#"{"name":"x"}"#.utf8))
    }

    @Test func concurrentRequestsRunSideBySide() async throws {
        // A barrier on the server: each request is held until all eight are in flight at once.
        // Requests sent one after another would never meet there, and would get 503.
        let arrived = Locked(0)
        server.route("GET", "/together") { _ in
            arrived.withLock { $0 += 1 }
            // Up to 300 s: a stalled test (80 s, seen under the sanitizer) must still meet here.
            for _ in 0..<30_000 where arrived.value < 8 {
                usleep(10_000)
            }
            return arrived.value >= 8 ? .init(body: Data("done".utf8)) : .init(status: 503)
        }
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 8
        let transport = URLSessionTransport(session: URLSession(configuration: configuration))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                let request = HTTPRequest(
                    url: url("together"), fields: [HTTPField.Name(unchecked: "X-Index"): "\(index)"])
                group.addTask { try await transport.send(request).status.code }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
        #expect(Set(server.requests.compactMap { $0.header("X-Index") }).count == 8)
    }

    @Test func cancellingTheCallingTaskCancelsTheRequestPromptly() async throws {
        // An hour: a stalled test (the sanitized suite has stalled one for 80 s) must never see
        // the answer arrive before its cancel.
        server.route("GET", "/hang", .init(delay: .seconds(3_600)))
        defer { server.stop() }
        let request = HTTPRequest(url: url("hang"))
        let transport = self.transport
        let call = Task { try await transport.send(request) }
        for _ in 0..<500 where server.requests.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(server.requests.count == 1)
        let clock = ContinuousClock()
        let start = clock.now
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        // Far below the route's hour, far above the 80 s a loaded sanitizer run has stalled a test.
        #expect(start.duration(to: clock.now) < .seconds(300))
    }

    @Test func alreadyCancelledTaskSendsNothing() async throws {
        defer { server.stop() }
        let transport = self.transport
        let request = HTTPRequest(url: url("never"))
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(request)
        }
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(server.requests.isEmpty)
    }

    @Test func replyThatIsNotHTTPIsATypedError() async throws {
        server.route("GET", "/garbage", .raw(Data("SSH-2.0-OpenSSH_9.2\r\nnot http at all\r\n".utf8)))
        defer { server.stop() }
        let error = await #expect(throws: (any Error).self) {
            try await transport.send(HTTPRequest(url: url("garbage")))
        }
        #expect(error is URLError || error is HTTPTransportError, "\(String(describing: error))")
    }

    @Test func serverClosingMidResponseIsATypedError() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: text/plain\r\n\r\n"
        server.route("GET", "/truncated", .raw(Data((head + "only ten b").utf8)))
        defer { server.stop() }
        let error = await #expect(throws: URLError.self) {
            try await transport.send(HTTPRequest(url: url("truncated")))
        }
        #expect(error?.code != .cancelled)
    }

    @Test func refusedConnectionIsAURLError() async throws {
        let port = server.port
        server.stop()
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/gone") ?? url("gone"))
        await #expect(throws: URLError.self) { try await transport.send(request) }
    }

    @Test(arguments: [
        "ftp://example.invalid/file", "http:///no-host", "mailto:someone@example.invalid", "relative/path",
    ])
    func requestThatCannotBeSentFailsBeforeAnythingIsSent(address: String) async throws {
        defer { server.stop() }
        let url = try #require(URL(string: address))
        await #expect(throws: HTTPTransportError.self) { try await transport.send(HTTPRequest(url: url)) }
        #expect(server.requests.isEmpty)
    }

    @Test(
        "A URL whose scheme is not in lower case is sent as http, since schemes ignore case",
        arguments: ["HTTP", "hTTp"])
    func schemeInAnyCaseIsSent(scheme: String) async throws {
        server.route("GET", "/cased", .init(body: Data("reached".utf8)))
        defer { server.stop() }
        let url = try #require(URL(string: "\(scheme)://127.0.0.1:\(server.port)/cased?q=a%2Fb%20c"))
        let request = HTTPRequest(url: url, fields: [HTTPField.Name(unchecked: "X-Custom"): "kept"])
        let response = try await transport.send(request)
        #expect(response.status == 200)
        #expect(try await response.bytes().text == "reached")
        let received = try #require(server.requests.first)
        #expect(received.target == "/cased?q=a%2Fb%20c", "the rest of the URL is sent exactly as written")
        #expect(received.header("X-Custom") == "kept")
    }

    /// An `HTTPRequest` always has a URL; a Foundation request without one fails where it is
    /// converted to a request head, before any transport sees it.
    @Test func requestWithoutAURLFailsClearly() throws {
        defer { server.stop() }
        var request = URLRequest(url: url("x"))
        request.url = nil
        #expect(throws: HTTPTransportError.invalidRequest(reason: "the request has no URL")) {
            try HTTPRequestHead(request)
        }
        #expect(server.requests.isEmpty)
    }

    @Test func pipelineOverURLSessionDeliversLayerChangesToTheServer() async throws {
        server.route("GET", "/trail", .init(body: Data("body".utf8)))
        defer { server.stop() }
        let log = OrderLog()
        let pipeline = Pipeline(transport: transport) {
            OrderProbe("outer", log: log)
            Trail(tag: "A")
            Trail(tag: "B")
            OrderProbe("inner", log: log)
        }
        let response = try await pipeline.send(HTTPRequest(url: url("trail")))
        #expect(response.status == 200)
        #expect(try await response.bytes().text == "body<B<A")
        #expect(server.requests.first?.header("X-Trail") == "A,B")
        #expect(log.description == "outer> inner> inner< outer<")
    }
}

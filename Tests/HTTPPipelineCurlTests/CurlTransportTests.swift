import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import Testing

@Suite("CurlTransport basics")
struct CurlTransportTests {
    @Test func theHeadArrivesWithItsFieldsInOrderAndAShortBodyBuffered() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route(
            "GET", "/hello",
            .init(status: 201, headers: [("X-B", "2"), ("X-A", "1"), ("X-A", "3")], body: Data("hello".utf8)))
        let response = try await CurlTransport(configuration: .default).send(
            HTTPRequest(url: server.baseURL.appending(path: "hello")))
        #expect(response.status == 201)
        #expect(response.fields[values: HTTPField.Name(unchecked: "X-A")] == ["1", "3"])
        #expect(response.fields.map(\.name.rawName) == ["X-B", "X-A", "X-A", "Content-Length", "Connection"])
        #expect(response.body.bufferedData == Data("hello".utf8))
    }

    @Test func aFieldValueThatIsNotUTF8KeepsEveryByteReadAsLatin1() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        var head = Data("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Latin: caf".utf8)
        head.append(0xE9)  // "é" in ISO-8859-1, not valid UTF-8 on its own
        head.append(Data("\r\nX-UTF8: café\r\nX-Folded: one\r\n two \r\n\r\nok".utf8))
        server.route("GET", "/latin", .raw(head))
        let response = try await CurlTransport(configuration: .default).send(
            HTTPRequest(url: server.baseURL.appending(path: "latin")))
        #expect(response.fields["X-Latin"] == "caf\u{E9}")
        #expect(response.fields["X-UTF8"] == "café")
        #expect(response.fields["X-Folded"] == "one two")
        #expect(try await response.body.collect(upTo: 100) == Data("ok".utf8))
    }

    @Test func theTransportSendsOnlyTheRequestsOwnFieldsAndNoAcceptEncoding() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        var request = HTTPRequest(url: server.baseURL.appending(path: "fields"))
        request.fields["X-Mine"] = "yes"
        request.fields["X-Empty"] = ""
        _ = try await CurlTransport(configuration: .default).send(request)
        let recorded = try #require(server.requests.first)
        #expect(recorded.header("X-Mine") == "yes")
        #expect(recorded.header("X-Empty") == "")
        #expect(recorded.header("Accept-Encoding") == nil)
        #expect(recorded.header("Accept") == nil)
        #expect(recorded.header("User-Agent") == nil)
        #expect(recorded.header("Cookie") == nil)
    }

    @Test func aHandleReusedForFewerAndShorterFieldsSendsExactlyTheNewRequestsFields() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        // Sequential requests: each takes the easy handle the one before left idle, so the
        // handle's header buffer first grows past its initial capacity, then is reused.
        let transport = CurlTransport(configuration: .default)
        var few = HTTPRequest(url: server.baseURL.appending(path: "few"))
        few.fields["X-Only"] = "1"
        var many = HTTPRequest(url: server.baseURL.appending(path: "many"))
        for index in 0..<40 { many.fields["X-Field-\(index)"] = String(repeating: "v\(index)", count: 20) }
        many.fields["X-Empty"] = ""
        _ = try await transport.send(few)
        _ = try await transport.send(many)
        _ = try await transport.send(few)
        _ = try await transport.send(many)
        let recorded = server.requests
        try #require(recorded.count == 4)
        for request in [recorded[1], recorded[3]] {
            for index in 0..<40 {
                #expect(request.header("X-Field-\(index)") == String(repeating: "v\(index)", count: 20))
            }
            #expect(request.header("X-Empty") == "")
            #expect(request.header("X-Only") == nil)
        }
        for request in [recorded[0], recorded[2]] {
            #expect(request.header("X-Only") == "1")
            #expect(request.header("X-Field-0") == nil)
            #expect(request.header("X-Empty") == nil)
            #expect(request.header("Accept") == nil)
        }
    }

    @Test func aConfiguredProxyReceivesThePlainRequestInAbsoluteFormWithTheOriginsHost() async throws {
        let proxy = try LoopbackServer.started()
        defer { proxy.stop() }
        proxy.route("GET", "/books/1", .init(body: Data("from the proxy".utf8)))
        var configuration = CurlTransport.Configuration.default
        configuration.proxy = .url(proxy.baseURL.absoluteString)
        // An origin that does not resolve: only the proxy can answer.
        let response = try await CurlTransport(configuration: configuration).send(
            HTTPRequest(url: try #require(URL(string: "http://books.example.invalid/books/1"))))
        #expect(response.status == 200)
        #expect(try await response.body.collect(upTo: 1 << 10) == Data("from the proxy".utf8))
        let recorded = try #require(proxy.requests.first)
        #expect(recorded.target == "http://books.example.invalid/books/1")
        #expect(recorded.header("Host") == "books.example.invalid")
    }

    @Test func aGetWithABodyGoesAsAGetWithItsBody() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let query = Data(#"{"q":"dune"}"#.utf8)
        var request = HTTPRequest(url: server.url("search"), body: HTTPBody(query))
        request.fields["Content-Type"] = "application/json"
        _ = try await CurlTransport(configuration: .default).send(request)
        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "GET", "libcurl sends an upload as PUT unless told the method")
        #expect(recorded.body == query)
    }

    @Test func aRedirectIsHandedBackNotFollowed() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/from", .init(status: 302, headers: [("Location", "/to")]))
        let response = try await CurlTransport(configuration: .default).send(
            HTTPRequest(url: server.baseURL.appending(path: "from")))
        #expect(response.status == 302)
        #expect(response.fields["Location"] == "/to")
        #expect(server.requests.map(\.path) == ["/from"])
    }

    @Test func aGzipBodyIsHandedOverAsItCameNotDecoded() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let bytes = Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
        server.route("GET", "/gz", .init(headers: [("Content-Encoding", "gzip")], body: bytes))
        let response = try await CurlTransport(configuration: .default).send(
            HTTPRequest(url: server.baseURL.appending(path: "gz")))
        #expect(response.fields["Content-Encoding"] == "gzip")
        #expect(try await response.body.collect(upTo: 1 << 10) == bytes)
    }

    @Test func twentySequentialRequestsShareOneConnection() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/ping", .init(body: Data("pong".utf8)))
        let transport = CurlTransport(configuration: .default)
        for _ in 0..<20 {
            let response = try await transport.send(HTTPRequest(url: server.baseURL.appending(path: "ping")))
            #expect(response.body.bufferedData == Data("pong".utf8))
        }
        #expect(server.connectionsAccepted == 1)
    }

    @Test func headAnd204And304HaveNoBody() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/doc", .init(body: Data(count: 1 << 20)))
        server.route("GET", "/none", .init(status: 204))
        let transport = CurlTransport(configuration: .default)
        let head = try await transport.send(HTTPRequest(method: .head, url: server.baseURL.appending(path: "doc")))
        #expect(head.status == 200)
        #expect(head.fields["Content-Length"] == String(1 << 20))
        #expect(head.body.bufferedData == Data())
        let none = try await transport.send(HTTPRequest(url: server.baseURL.appending(path: "none")))
        #expect(none.status == 204)
        #expect(none.body.bufferedData == Data())
    }
}

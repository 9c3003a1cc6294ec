import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// `URLSessionTransport` with the core's request and response types, against a real HTTP/1.1
/// server on loopback: field names as written, header injection refused, streamed request bodies
/// and the response head.
@Suite struct URLSessionTransportHeadTests {
    let server = LoopbackServer()
    let transport = URLSessionTransport()

    init() throws {
        try server.start()
    }

    func url(_ path: String) -> URL {
        server.baseURL.appendingPathComponent(path)
    }

    /// Chunks of bytes, read once.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let chunks: [Data]

        struct Iterator: AsyncIteratorProtocol {
            var rest: ArraySlice<Data>
            mutating func next() async throws -> Data? { rest.popFirst() }
        }

        func makeAsyncIterator() -> Iterator { Iterator(rest: chunks[...]) }
    }

    @Test("Fields arrive at the server with their names spelled exactly as written, X-Trace-ID included")
    func fieldNamesArriveAsWritten() async throws {
        server.route("GET", "/fields", .init(status: 204))
        defer { server.stop() }
        let fields = HTTPFields([
            HTTPField(name: "X-Trace-ID", value: "trace-7"),
            HTTPField(name: "Accept", value: "application/json"),
            HTTPField(name: "x-lower-case", value: "lower"),
            HTTPField(name: "X-ETag-Hint", value: "W/\"1\""),
        ])

        let response = try await transport.send(HTTPRequest(url: url("fields"), fields: fields))

        #expect(response.status == 204)
        let received = try #require(server.requests.first)
        let names = Set(received.headers.map(\.name))
        for field in fields {
            #expect(names.contains(field.name.rawName), "\(field.name) arrived as one of \(names.sorted())")
            #expect(received.headerValues(field.name.rawName) == [field.value])
        }
    }

    @Test(
        "A field value holding CR or LF is refused as an invalid request and nothing reaches the server",
        arguments: ["trace\r\nX-Injected: 1", "trace\nX-Injected: 1", "trace\r"])
    func injectedValueIsRefusedBeforeSending(value: String) async throws {
        server.route("GET", "/injected", .init(status: 200))
        defer { server.stop() }
        let request = HTTPRequest(url: url("injected"), fields: [HTTPField.Name(unchecked: "X-Trace-ID"): value])

        await #expect {
            try await transport.send(request)
        } throws: { error in
            guard let error = error as? HTTPTransportError, error.isInvalidRequest, let reason = error.reason else {
                return false
            }
            return !reason.contains(value) && !reason.contains("X-Injected")
        }
        #expect(server.requests.count == 0)
        #expect(server.connectionsAccepted == 0)
    }

    @Test("A POST whose body is a single-pass stream arrives with all its bytes, and cannot be sent again")
    func singlePassStreamBodyArrivesWhole() async throws {
        server.route("POST", "/upload", .init(status: 201))
        defer { server.stop() }
        let chunks = (0..<5).map { index in Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }) }
        let whole = chunks.reduce(Data(), +)
        let request = HTTPRequest(
            method: .post, url: url("upload"), fields: [.contentType: "application/octet-stream"],
            body: HTTPBody(stream: Chunks(chunks: chunks), length: whole.count))
        #expect(!request.isReplayable)

        let response = try await transport.send(request)

        #expect(response.status == 201)
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.path == "/upload")
        #expect(received.body.count == whole.count)
        #expect(received.body == whole)
        await #expect(throws: HTTPBodyError.alreadyConsumed) { try await transport.send(request) }
        #expect(server.requests.count == 1, "a second send of the used stream sent nothing")
    }

    @Test("The response's status, fields and body come back in the HTTPResponse")
    func responseHeadComesBack() async throws {
        let body = Data(#"{"ok":true}"#.utf8)
        server.route(
            "GET", "/head",
            .init(
                status: 207,
                headers: [
                    ("Content-Type", "application/json"), ("X-Trace-ID", "trace-9"), ("Cache-Control", "no-store"),
                ],
                body: body))
        defer { server.stop() }

        let response = try await transport.send(HTTPRequest(url: url("head")))

        #expect(response.status == 207)
        #expect(response.head.status == 207)
        #expect(response.fields["x-trace-id"] == "trace-9")
        #expect(response.fields["X-Trace-ID"] == "trace-9")
        #expect(response.fields["Cache-Control"] == "no-store")
        #expect(response.fields["content-type"] == "application/json")
        #expect(response.body.bufferedData == body)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@Suite struct HTTPRequestTests {
    static let first = URL(string: "https://api.example.invalid/v1/books") ?? URL(fileURLWithPath: "/")
    static let second = URL(string: "https://api.example.invalid/v2/books?page=2") ?? URL(fileURLWithPath: "/")

    /// Chunks of bytes, made fresh by each iterator.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let chunks: [Data]

        struct Iterator: AsyncIteratorProtocol {
            var rest: ArraySlice<Data>
            mutating func next() async throws -> Data? { rest.popFirst() }
        }

        func makeAsyncIterator() -> Iterator { Iterator(rest: chunks[...]) }
    }

    // MARK: Forwarding properties

    @Test("Setting the method, URL and fields on a request writes them through to its head")
    func forwardingPropertiesWriteThroughToTheHead() {
        var request = HTTPRequest(url: Self.first, fields: [.accept: "application/json"])
        request.method = .put
        request.url = Self.second
        request.fields["X-Trace-ID"] = "t-1"
        request.fields.append(HTTPField(name: "accept", value: "text/plain"))

        #expect(request.head.method == .put)
        #expect(request.head.url == Self.second)
        #expect(request.head.fields.map(\.name.rawName) == ["Accept", "X-Trace-ID", "accept"])
        #expect(request.head.fields[values: .accept] == ["application/json", "text/plain"])
        #expect(
            request.head
                == HTTPRequestHead(
                    method: .put, url: Self.second,
                    fields: HTTPFields([
                        HTTPField(name: "Accept", value: "application/json"),
                        HTTPField(name: "X-Trace-ID", value: "t-1"),
                        HTTPField(name: "accept", value: "text/plain"),
                    ])))
    }

    @Test("Changing the head shows through the forwarding properties, and the body and context stay")
    func changingTheHeadShowsThroughTheProperties() {
        var context = HTTPRequestContext()
        context[Tag.self] = "kept"
        var request = HTTPRequest(method: .post, url: Self.first, body: HTTPBody(Data("b".utf8)), context: context)
        request.head = HTTPRequestHead(
            method: .delete, url: Self.second, fields: [HTTPField.Name(unchecked: "X-One"): "1"])

        #expect(request.method == .delete)
        #expect(request.url == Self.second)
        #expect(request.fields["x-one"] == "1")
        #expect(request.body?.bufferedData == Data("b".utf8))
        #expect(request.context[Tag.self] == "kept")
    }

    @Test("Removing a field through the request removes it from the head, in any case")
    func removingAFieldThroughTheRequest() {
        var request = HTTPRequest(url: Self.first, fields: [.authorization: "Bearer t", .accept: "*/*"])
        request.fields["authorization"] = nil
        #expect(request.head.fields == [.accept: "*/*"])
    }

    // MARK: Replayability

    @Test("A request without a body is replayable")
    func noBodyIsReplayable() {
        #expect(HTTPRequest(url: Self.first).isReplayable)
        #expect(HTTPRequest(method: .post, url: Self.first, body: nil).isReplayable)
    }

    @Test("A request with a buffered body is replayable, an empty one included")
    func bufferedBodyIsReplayable() {
        #expect(HTTPRequest(method: .post, url: Self.first, body: HTTPBody(Data("x".utf8))).isReplayable)
        #expect(HTTPRequest(method: .post, url: Self.first, body: .empty).isReplayable)
    }

    @Test("A request with a replayable stream body is replayable, and reads its bytes again every time")
    func replayableStreamIsReplayable() async throws {
        let chunks = [Data("ab".utf8), Data("cd".utf8)]
        let request = HTTPRequest(
            method: .post, url: Self.first, body: HTTPBody(length: 4) { Chunks(chunks: chunks) })
        #expect(request.isReplayable)
        #expect(try await request.body?.collect(upTo: 100) == Data("abcd".utf8))
        #expect(try await request.body?.collect(upTo: 100) == Data("abcd".utf8))
        #expect(request.isReplayable, "reading it changes nothing")
    }

    @Test("A request with a single-pass stream body is not replayable, before and after it is read")
    func singlePassStreamIsNotReplayable() async throws {
        var request = HTTPRequest(
            method: .post, url: Self.first, body: HTTPBody(stream: Chunks(chunks: [Data("ab".utf8)]), length: 2))
        #expect(!request.isReplayable)
        #expect(try await request.body?.collect(upTo: 100) == Data("ab".utf8))
        #expect(!request.isReplayable)
        request.body = nil
        #expect(request.isReplayable, "without its body it can be sent again")
    }

    // MARK: Context through a pipeline

    enum Tag: HTTPContextKey { typealias Value = String }

    /// Sets its own context key for the layers below.
    struct SetsTag: HTTPMiddleware {
        /// The key of this middleware alone.
        enum TraceTag: HTTPContextKey { typealias Value = String }

        let value: String

        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            var request = request
            request.context[TraceTag.self] = value
            return try await next(request)
        }
    }

    /// Records the tag it saw.
    struct ReadsTag: HTTPMiddleware {
        let seen: Locked<[String?]>

        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            seen.withLock { $0.append(request.context[SetsTag.TraceTag.self]) }
            return try await next(request)
        }
    }

    @Test(
        "A value one layer puts in the context reaches an inner layer and the transport, with a layer between",
        arguments: [true, false])
    func contextValuesTravelThroughThePipeline(builder: Bool) async throws {
        let transport = ScriptedTransport { request in
            .status(200, headers: ["X-Seen": request.context[SetsTag.TraceTag.self] ?? "nothing"])
        }
        let outer = Locked<[String?]>([])
        let inner = Locked<[String?]>([])
        let pipeline: any HTTPTransport =
            if builder {
                Pipeline(transport: transport) {
                    ReadsTag(seen: outer)
                    SetsTag(value: "checkout-42")
                    Trail(tag: "between")
                    ReadsTag(seen: inner)
                }
            } else {
                Pipeline(
                    transport: transport,
                    middleware: [
                        ReadsTag(seen: outer), SetsTag(value: "checkout-42"), Trail(tag: "between"),
                        ReadsTag(seen: inner),
                    ])
            }

        let response = try await pipeline.send(request())

        #expect(inner.value == ["checkout-42"])
        #expect(response.fields["X-Seen"] == "checkout-42")
        #expect(transport.requests.first?.context[SetsTag.TraceTag.self] == "checkout-42")
        #expect(transport.requests.first?.fields["X-Trail"] == "between", "the layer between ran")
        #expect(outer.value == [nil], "a layer above never sees what a layer below set")
    }

    @Test("The context the caller passes reaches the transport beside a layer's own value")
    func callersContextTravelsBesideALayersValue() async throws {
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) { SetsTag(value: "layer") }
        var request = request()
        request.context[Tag.self] = "caller"

        _ = try await pipeline.send(request)

        let sent = try #require(transport.requests.first)
        #expect(sent.context[Tag.self] == "caller")
        #expect(sent.context[SetsTag.TraceTag.self] == "layer")
        #expect(sent.context.count == 2)
    }
}

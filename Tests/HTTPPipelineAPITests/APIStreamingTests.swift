import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// A transport answering every request with `status` and `chunks`, streamed once; it records the
/// requests it saw.
private struct ChunkedTransport: HTTPTransport {
    let status: Int
    let chunks: [Data]
    let failure: (any Error & Sendable)?
    let seen = Locked([HTTPRequest]())

    init(status: Int = 200, _ chunks: [Data], failingWith failure: (any Error & Sendable)? = nil) {
        self.status = status
        self.chunks = chunks
        self.failure = failure
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        seen.withLock { $0.append(request) }
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish(throwing: failure)
        }
        return HTTPResponse(status: .init(code: status), body: HTTPBody(stream: stream))
    }
}

/// `text` cut into pieces of `size` bytes (the last may be shorter).
private func pieces(_ text: String, size: Int) -> [Data] {
    let bytes = Array(text.utf8)
    return stride(from: 0, to: bytes.count, by: size).map { Data(bytes[$0..<min($0 + size, bytes.count)]) }
}

private struct Delta: Decodable, Sendable, Equatable {
    let text: String
}

private struct Broke: Error {}

@Suite struct APIStreamingTests {

    func client(_ transport: any HTTPTransport) throws -> APIClient {
        APIClient(baseURL: try #require(URL(string: "https://api.example.com")), transport: transport)
    }

    @Test("Lines come out the same wherever the chunks are cut, with LF, CR LF and CR line ends")
    func linesAtEveryCut() async throws {
        let text = "first\r\nsecond\nthird\rfourth\r\n\r\nlast without end"
        let expected = ["first", "second", "third", "fourth", "", "last without end"]
        for size in 1...text.utf8.count {
            let lines = try await client(ChunkedTransport(pieces(text, size: size))).lines(
                Endpoint<EmptyResponse>.get("/tail"))
            var seen: [String] = []
            for try await line in lines { seen.append(line) }
            #expect(seen == expected, "chunks of \(size) bytes")
        }
    }

    @Test("A line longer than the limit stops the read with streamLineTooLong")
    func longLineIsRefused() async throws {
        let transport = ChunkedTransport([Data("ok\n".utf8), Data(repeating: UInt8(ascii: "x"), count: 5_000)])
        let lines = try await client(transport).lines(Endpoint<EmptyResponse>.get("/tail"), maximumLineLength: 1_000)
        var iterator = lines.makeAsyncIterator()
        #expect(try await iterator.next() == "ok")
        await #expect(throws: APIError.self) { _ = try await iterator.next() }
        var again = try await client(transport).lines(Endpoint<EmptyResponse>.get("/tail"), maximumLineLength: 1_000)
            .makeAsyncIterator()
        _ = try await again.next()
        do {
            _ = try await again.next()
            Issue.record("the long line was read")
        } catch let error as APIError {
            guard error.isStreamLineTooLong, let limit = error.limit else { throw error }
            #expect(limit == 1_000)
        }
    }

    @Test("Server-sent events are parsed as the HTML standard says, at every chunk cut")
    func serverSentEventsAtEveryCut() async throws {
        let stream =
            "\u{FEFF}: keep-alive\n\nevent: update\ndata: one\ndata: two\nid: 7\nretry: 1500\n\n"
            + "data:no space\n\ndata\n\nid: 8\n\nevent: ignored-without-data\n\ndata: {\"text\":\"é\"}\r\n\r\n"
            + "data: unfinished"
        let expected = [
            ServerSentEvent(type: "update", data: "one\ntwo", lastEventID: "7", retry: .milliseconds(1500)),
            ServerSentEvent(data: "no space", lastEventID: "7", retry: .milliseconds(1500)),
            ServerSentEvent(data: "", lastEventID: "7", retry: .milliseconds(1500)),
            ServerSentEvent(data: #"{"text":"é"}"#, lastEventID: "8", retry: .milliseconds(1500)),
        ]
        for size in [1, 2, 3, 5, 7, 64, 1_000] {
            let events = try await client(ChunkedTransport(pieces(stream, size: size))).events(
                Endpoint<EmptyResponse>.get("/live"))
            var seen: [ServerSentEvent] = []
            for try await event in events { seen.append(event) }
            #expect(seen == expected, "chunks of \(size) bytes")
        }
    }

    @Test("An events request asks for text/event-stream unless the endpoint set Accept")
    func eventsAskForEventStream() async throws {
        let transport = ChunkedTransport([])
        _ = try await client(transport).events(Endpoint<EmptyResponse>.get("/live"))
        _ = try await client(transport).events(
            Endpoint<EmptyResponse>.get("/live").header("Accept", "application/x-ndjson"))
        #expect(
            transport.seen.withLock { $0.map { $0.fields["Accept"] } } == ["text/event-stream", "application/x-ndjson"])
    }

    @Test("Lines before a line past the limit are handed out first, even in the same chunk")
    func linesBeforeTheLongOneComeFirst() async throws {
        let chunk = Data("ok\nfine\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: 5_000)
        var iterator = try await client(ChunkedTransport([chunk])).lines(
            Endpoint<EmptyResponse>.get("/tail"), maximumLineLength: 1_000
        ).makeAsyncIterator()
        #expect(try await iterator.next() == "ok")
        #expect(try await iterator.next() == "fine")
        await #expect(throws: APIError.self) { _ = try await iterator.next() }
    }

    @Test("An event whose data lines never end in a blank line stops at the limit, and retry alone is kept")
    func eventDataIsBounded() async throws {
        let endless = Array(repeating: Data("data: 0123456789\n".utf8), count: 200)
        let events = try await client(ChunkedTransport(endless)).events(
            Endpoint<EmptyResponse>.get("/live"), maximumLineLength: 1_000)
        var iterator = events.makeAsyncIterator()
        await #expect(throws: APIError.self) { _ = try await iterator.next() }

        let retryFirst = Data("retry: 10000\n\ndata: hi\n\n".utf8)
        var seen: [ServerSentEvent] = []
        for try await event in try await client(ChunkedTransport([retryFirst])).events(
            Endpoint<EmptyResponse>.get("/live"))
        {
            seen.append(event)
        }
        #expect(seen == [ServerSentEvent(data: "hi", retry: .seconds(10))])
    }

    @Test("Decoded events yield typed values until the terminator, and a bad one is a decoding error")
    func decodedEvents() async throws {
        let stream =
            #"data: {"text":"Hel"}"# + "\n\n" + #"data: {"text":"lo"}"# + "\n\ndata: [DONE]\n\n"
            + #"data: {"text":"after"}"# + "\n\n"
        let deltas = try await client(ChunkedTransport(pieces(stream, size: 4))).decodedEvents(
            Endpoint<Delta>.post("/complete"), endingAt: "[DONE]")
        var seen: [Delta] = []
        for try await delta in deltas { seen.append(delta) }
        #expect(seen == [Delta(text: "Hel"), Delta(text: "lo")])

        let bad = try await client(ChunkedTransport([Data("data: {\"txt\":1}\n\n".utf8)])).decodedEvents(
            Endpoint<Delta>.post("/complete"))
        var iterator = bad.makeAsyncIterator()
        do {
            _ = try await iterator.next()
            Issue.record("a value without its key decoded")
        } catch let error as APIError {
            guard error.isDecoding, let path = error.codingPath else { throw error }
            #expect(path == "text")
        }
    }

    @Test("A stream that fails mid-body gives the lines before it, then a transport error")
    func failureMidBody() async throws {
        let lines = try await client(ChunkedTransport([Data("a\nb\nc".utf8)], failingWith: Broke())).lines(
            Endpoint<EmptyResponse>.get("/tail"))
        var iterator = lines.makeAsyncIterator()
        #expect(try await iterator.next() == "a")
        #expect(try await iterator.next() == "b")
        do {
            _ = try await iterator.next()
            Issue.record("the failure was not thrown")
        } catch let error as APIError {
            guard error.isTransport, let underlying = error.underlying else { throw error }
            #expect(underlying is Broke)
        }
    }

    @Test("A streaming call with an error status throws unacceptableStatus before any line")
    func errorStatusBeforeLines() async throws {
        await #expect(throws: APIError.self) {
            _ = try await client(ChunkedTransport(status: 503, [Data("busy".utf8)])).lines(
                Endpoint<EmptyResponse>.get("/tail"))
        }
    }

    @Test("A download goes to its file whole; past its limit it fails and leaves nothing")
    func downloads() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "api-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let chunks = (0..<50).map { Data(repeating: UInt8($0), count: 10_000) }
        let destination = directory.appendingPathComponent("report.bin")
        let written = try await client(ChunkedTransport(chunks)).download(
            Endpoint<EmptyResponse>.get("/report"), to: destination)
        #expect(written == 500_000)
        #expect(try Data(contentsOf: destination) == chunks.reduce(Data(), +))

        let refused = directory.appendingPathComponent("big.bin")
        do {
            try await client(ChunkedTransport(chunks)).download(
                Endpoint<EmptyResponse>.get("/report"), to: refused, limit: 100_000)
            Issue.record("a download past its limit succeeded")
        } catch let error as APIError {
            guard error.isResponseTooLarge, let limit = error.limit else { throw error }
            #expect(limit == 100_000)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.bin"])
    }

    @Test("Server-sent events arrive over a real socket as the server drips them")
    func eventsOverLoopback() async throws {
        let server = LoopbackServer()
        let chunks = (1...5).map { Data("id: \($0)\ndata: {\"text\":\"t\($0)\"}\n\n".utf8) }
        server.route(
            "GET", "/live",
            .init(headers: [("Content-Type", "text/event-stream")], body: .chunked(chunks, every: .milliseconds(5))))
        try server.start()
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, transport: URLSessionTransport())
        var seen: [Delta] = []
        for try await delta in try await client.decodedEvents(Endpoint<Delta>.get("/live")) { seen.append(delta) }
        #expect(seen == (1...5).map { Delta(text: "t\($0)") })
        #expect(server.requests.first?.header("Accept") == "text/event-stream")
    }
}

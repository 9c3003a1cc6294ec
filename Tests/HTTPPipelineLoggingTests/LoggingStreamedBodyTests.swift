import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineTesting
import Testing

/// Streamed bodies pass through logging unchanged, watched as they are read: one record per
/// exchange, written when the body ends, fails or is dropped.
@Suite struct LoggingStreamedBodyTests {
    /// What a stream throws halfway through its body.
    struct StreamBroke: Error {}

    /// A body's chunks as a transport streams them.
    typealias ChunkStream = AsyncThrowingStream<Data, any Error>

    static let url = URL(string: "https://api.example.invalid/files/1") ?? URL(fileURLWithPath: "/")

    /// `total` bytes of text, lines of words, the same every time.
    static func text(_ total: Int) -> Data {
        var text = ""
        var line = 0
        while text.utf8.count < total {
            text += "line \(line): the quick brown fox jumps over the lazy dog\n"
            line += 1
        }
        return Data(text.utf8.prefix(total))
    }

    /// `data` in chunks of `size` bytes.
    static func chunks(of data: Data, size: Int) -> [Data] {
        stride(from: 0, to: data.count, by: size).map { Data(data[$0..<min($0 + size, data.count)]) }
    }

    /// A stream of `chunks`, then `error` if there is one, else the end.
    static func stream(_ chunks: [Data], failingWith error: (any Error)? = nil) -> ChunkStream {
        ChunkStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish(throwing: error)
        }
    }

    /// A pipeline of logging at `level` over a transport that answers every request with `response`.
    static func pipeline(
        _ level: LogLevel = .body,
        sink: InMemoryLogSink,
        response: @escaping @Sendable () -> HTTPResponse
    ) -> some HTTPTransport {
        Pipeline(transport: ClosureTransport { _ in response() }) { LoggingMiddleware(level: level, sink: sink) }
    }

    @Test("A 1 MiB body streamed in 16 KiB chunks reaches the caller chunk for chunk, with one record after its end")
    func aStreamedResponseIsPassedOnUnchangedAndRecordedOnceAtItsEnd() async throws {
        let body = Self.text(1 << 20)
        let chunks = Self.chunks(of: body, size: 16 << 10)
        #expect(chunks.count == 64)
        let sink = InMemoryLogSink()
        let pipeline = Self.pipeline(sink: sink) {
            HTTPResponse(
                status: 200, fields: [.contentType: "text/plain"],
                body: HTTPBody(stream: Self.stream(chunks), length: body.count))
        }
        let response = try await pipeline.send(HTTPRequest(url: Self.url))
        #expect(response.body.bufferedData == nil, "logging does not buffer a streamed body")
        #expect(!response.body.isReplayable)
        #expect(response.body.length == body.count)
        #expect(sink.records.isEmpty, "nothing is recorded before the body is read")
        var received: [Data] = []
        var iterator = response.body.makeAsyncIterator()
        for _ in 0..<chunks.count {
            received.append(try #require(try await iterator.next()))
        }
        #expect(sink.records.isEmpty, "nothing is recorded before the body ends")
        #expect(try await iterator.next() == nil)
        #expect(received == chunks, "every chunk, as it came")
        #expect(received.reduce(Data(), +) == body)
        #expect(sink.records.count == 1)
        let record = try #require(sink.records.first)
        #expect(record.outcome == .response(status: 200))
        #expect(record.responseBytes == body.count)
        #expect(record.requestBytes == 0)
        let shown = try #require(record.responseBody)
        #expect(shown.hasPrefix("line 0: the quick brown fox"))
        #expect(shown.utf8.count <= 4_096 + 48, "the body in the record: \(shown.utf8.count) bytes")
        #expect(shown.hasSuffix("; limit 4096)"), "the cut is noted: \(shown.suffix(60))")
        _ = try await iterator.next()
        #expect(sink.records.count == 1, "reading past the end records nothing more")
    }

    @Test("A stream that throws halfway: the caller gets the error, and the one record names it and counts what passed")
    func aStreamThatFailsIsRecordedAsABodyFailure() async throws {
        let chunks = Self.chunks(of: Self.text(3_000), size: 1_000)
        let sink = InMemoryLogSink()
        let pipeline = Self.pipeline(sink: sink) {
            HTTPResponse(
                status: 200, fields: [.contentType: "text/plain"],
                body: HTTPBody(stream: Self.stream(chunks, failingWith: StreamBroke())))
        }
        let response = try await pipeline.send(HTTPRequest(url: Self.url))
        #expect(sink.records.isEmpty)
        var received = Data()
        await #expect(throws: StreamBroke.self) {
            for try await chunk in response.body { received.append(chunk) }
        }
        #expect(received == chunks.reduce(Data(), +), "the bytes before the error still reach the caller")
        #expect(sink.records.count == 1)
        let record = try #require(sink.records.first)
        #expect(record.outcome == .bodyFailed(status: 200, kind: "StreamBroke"))
        #expect(record.responseBytes == 3_000)
        #expect(record.formatted.contains("200"))
        await #expect(throws: HTTPBodyError.alreadyConsumed) { try await response.body.collect(upTo: 1 << 20) }
        #expect(sink.records.count == 1, "a second read records nothing more")
    }

    @Test("A streamed response dropped unread gives one record: the body was abandoned, no byte passed")
    func aStreamedResponseDroppedUnreadIsRecordedAsAbandoned() async throws {
        let sink = InMemoryLogSink()
        let pipeline = Self.pipeline(sink: sink) {
            HTTPResponse(status: 200, body: HTTPBody(stream: Self.stream(Self.chunks(of: Self.text(4_000), size: 500))))
        }
        do {
            let response = try await pipeline.send(HTTPRequest(url: Self.url))
            #expect(response.status == 200)
            #expect(sink.records.isEmpty, "the body may still be read")
        }
        #expect(sink.records.count == 1)
        let record = try #require(sink.records.first)
        #expect(record.outcome == .bodyFailed(status: 200, kind: "abandoned"))
        #expect(record.responseBytes == 0)
    }

    @Test("A streamed response read in part and dropped gives one abandoned record with the bytes that passed")
    func aStreamedResponseReadInPartIsRecordedAsAbandoned() async throws {
        let sink = InMemoryLogSink()
        let pipeline = Self.pipeline(sink: sink) {
            HTTPResponse(status: 200, body: HTTPBody(stream: Self.stream(Self.chunks(of: Self.text(4_000), size: 500))))
        }
        do {
            let response = try await pipeline.send(HTTPRequest(url: Self.url))
            var iterator = response.body.makeAsyncIterator()
            _ = try await iterator.next()
            _ = try await iterator.next()
        }
        #expect(sink.records.count == 1)
        let record = try #require(sink.records.first)
        #expect(record.outcome == .bodyFailed(status: 200, kind: "abandoned"))
        #expect(record.responseBytes == 1_000)
    }

    @Test("A single-pass request body is read once, whole, by the transport alone; the record counts its bytes")
    func aStreamedRequestBodyIsReadOnlyByTheTransport() async throws {
        let secret = "pw-SECRET-S1"
        let json = Data(
            #"{"user":"ada","password":"\#(secret)","note":"\#(String(repeating: "x", count: 5_000))"}"#.utf8)
        // Chunks of 7 bytes: the secret is split across chunks.
        let chunks = Self.chunks(of: json, size: 7)
        let reads = Locked(0)
        let received = Locked<[Data]>([])
        let transport = ClosureTransport { request in
            #expect(!request.isReplayable, "the body is still the caller's single-pass stream")
            #expect(request.body?.bufferedData == nil)
            var data = Data()
            for try await chunk in try #require(request.body) { data.append(chunk) }
            received.withLock { $0.append(data) }
            return HTTPResponse(status: 201, body: HTTPBody(Data("made".utf8)))
        }
        let sink = InMemoryLogSink()
        let pipeline = Pipeline(transport: transport) { LoggingMiddleware(level: .body, sink: sink) }
        let request = HTTPRequest(
            method: .post, url: Self.url, fields: [.contentType: "application/json"],
            body: HTTPBody(stream: CountingChunks(base: Self.stream(chunks), reads: reads)))
        let response = try await pipeline.send(request)
        #expect(try await response.bytes() == Data("made".utf8))
        #expect(reads.value == 1, "one read of the caller's stream: the transport's")
        #expect(received.value == [json], "the transport got every byte")
        #expect(sink.records.count == 1)
        let record = try #require(sink.records.first)
        #expect(record.outcome == .response(status: 201))
        #expect(record.requestBytes == json.count)
        #expect(record.responseBytes == 4)
        #expect(record.requestBody?.contains(#""user":"ada""#) == true, "\(record.requestBody ?? "nil")")
        #expect(!sink.text.contains(secret))
        #expect(!sink.text.contains("pw-SECRET"))
    }

    @Test(
        "A replayable streamed response stays replayable through logging; two reads give the same bytes and one record")
    func aReplayableStreamedResponseStaysReplayable() async throws {
        let body = Self.text(100_000)
        let chunks = Self.chunks(of: body, size: 4_096)
        let sink = InMemoryLogSink()
        let pipeline = Self.pipeline(sink: sink) {
            HTTPResponse(
                status: 200, fields: [.contentType: "text/plain"],
                body: HTTPBody(length: body.count, replayable: { Self.stream(chunks) }))
        }
        let response = try await pipeline.send(HTTPRequest(url: Self.url))
        #expect(response.body.isReplayable)
        #expect(response.body.bufferedData == nil)
        #expect(response.body.length == body.count)
        #expect(sink.records.isEmpty)
        let first = try await response.body.collect(upTo: 1 << 20)
        #expect(sink.records.count == 1)
        let second = try await response.body.collect(upTo: 1 << 20)
        #expect(first == body)
        #expect(second == body)
        #expect(sink.records.count == 1, "only the first read is recorded")
        let record = try #require(sink.records.first)
        #expect(record.outcome == .response(status: 200))
        #expect(record.responseBytes == body.count)
    }

    @Test("Below body level a streamed response is still recorded once at its end, without its bytes")
    func belowBodyLevelAStreamedResponseIsRecordedWithoutItsBytes() async throws {
        let body = Self.text(50_000)
        let sink = InMemoryLogSink()
        let pipeline = Self.pipeline(.headers, sink: sink) {
            HTTPResponse(
                status: 200, fields: [.contentType: "text/plain"],
                body: HTTPBody(stream: Self.stream(Self.chunks(of: body, size: 1_000))))
        }
        let response = try await pipeline.send(HTTPRequest(url: Self.url))
        #expect(try await response.bytes() == body)
        let record = try #require(sink.records.first)
        #expect(sink.records.count == 1)
        #expect(record.responseBytes == body.count)
        #expect(record.responseBody == nil)
        #expect(record.responseHeaders.contains(.init(name: "Content-Type", value: "text/plain")))
    }

    // The record shows a streamed body from the bytes the tee kept. Where that copy ends, a run of
    // text (user info before its `@`, a credential after `Bearer`) can be cut in two, and the half
    // kept no longer looks like the secret it is part of: the copy must go as far as a buffered
    // body is scanned, so that the redaction cuts it where no secret is split, and notes the cut.

    @Test(
        "A streamed body is never shown with part of a secret, wherever the log's cut falls", arguments: Array(0...170))
    func aStreamedBodyCutNeverShowsASecret(shift: Int) async throws {
        let hidden = String(repeating: "Z", count: 20 + shift)
        let body = Data("token=\(hidden)\(LoggingLimitsTests.textTail)".utf8)
        let chunks = Self.chunks(of: body, size: 7)
        let sink = InMemoryLogSink()
        let pipeline = Pipeline(
            transport: ClosureTransport { _ in
                HTTPResponse(
                    status: 200, fields: [.contentType: "text/plain"], body: HTTPBody(stream: Self.stream(chunks)))
            }
        ) {
            LoggingMiddleware(level: .body, sink: sink, bodyLimit: 200)
        }
        #expect(try await pipeline.send(HTTPRequest(url: Self.url)).bytes() == body)
        let shown = try #require(sink.records.first?.responseBody)
        #expect(!LoggingLimitsTests.leaks(shown), "shift \(shift): \(shown)")
        #expect(shown.hasSuffix(" more bytes; limit 200)"), "shift \(shift): \(shown)")
    }

    @Test("A streamed body is shown as the same body buffered is, up to the note of the cut", arguments: [0, 57, 131])
    func aStreamedBodyIsShownAsTheSameBodyBuffered(shift: Int) async throws {
        let body = Data("token=\(String(repeating: "Z", count: 20 + shift))\(LoggingLimitsTests.textTail)".utf8)
        func shown(_ makeBody: @escaping @Sendable () -> HTTPBody) async throws -> String {
            let sink = InMemoryLogSink()
            let pipeline = Pipeline(
                transport: ClosureTransport { _ in
                    HTTPResponse(status: 200, fields: [.contentType: "text/plain"], body: makeBody())
                }
            ) {
                LoggingMiddleware(level: .body, sink: sink, bodyLimit: 200)
            }
            _ = try await pipeline.send(HTTPRequest(url: Self.url)).bytes()
            let text = try #require(sink.records.first?.responseBody)
            return String(text[..<(text.range(of: "… (")?.lowerBound ?? text.endIndex)])
        }
        let chunks = Self.chunks(of: body, size: 13)
        let streamed = try await shown { HTTPBody(stream: Self.stream(chunks)) }
        let buffered = try await shown { HTTPBody(body) }
        #expect(streamed == buffered)
        #expect(streamed.hasPrefix("token=<redacted>"))
    }
}

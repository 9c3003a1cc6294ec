import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streamed bodies and failures through a recording and back out of a replay: the caller of a
/// recording sees exactly what the transport below gave, and a replay gives the same again.
@Suite struct CassetteStreamTests {
    static let url = testURL("https://api.example.com/events")

    /// The chunks of a body as read, one by one.
    static func chunks(of body: HTTPBody) async throws -> [Data] {
        var chunks: [Data] = []
        for try await chunk in body { chunks.append(chunk) }
        return chunks
    }

    /// A replaying transport over the cassette written to a file and read back.
    static func replay(_ cassette: Cassette) throws -> ReplayingTransport {
        try ReplayingTransport(try Cassette(data: try cassette.harData()))
    }

    @Test("A streamed response reaches the caller as a stream, chunk for chunk, and is recorded when it ends")
    func aStreamedResponseStaysAStream() async throws {
        let sent = (0..<5).map { Data("data: event \($0)\n\n".utf8) }
        let cassette = Cassette()
        let recorder = RecordingTransport(
            over: ScriptedTransport([.streamed(headers: ["Content-Type": "text/event-stream"], chunks: sent)]),
            into: cassette)
        let response = try await recorder.send(HTTPRequest(url: Self.url))
        #expect(response.body.bufferedData == nil)
        #expect(cassette.entries.isEmpty, "recorded before the body was read")
        #expect(try await Self.chunks(of: response.body) == sent)
        let entry = try #require(cassette.entries.first)
        #expect(entry.response.content.text == String(decoding: sent.reduce(Data(), +), as: UTF8.self))
        #expect(entry.response.content.chunks == sent.map(\.count))
        #expect(entry.response.error == nil)
    }

    @Test("Entries are in the order requests were sent, not the order their streamed bodies ended")
    func entriesAreInTheOrderRequestsWereSent() async throws {
        let cassette = Cassette()
        let recorder = RecordingTransport(
            over: ScriptedTransport { request in .streamed(chunks: [Data(request.url.lastPathComponent.utf8)]) },
            into: cassette)
        let first = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/first")))
        let second = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/second")))
        _ = try await second.body.collect(upTo: 100)
        #expect(cassette.entries.map(\.response.content.text) == ["second"])
        _ = try await first.body.collect(upTo: 100)
        #expect(cassette.entries.map(\.response.content.text) == ["first", "second"])
    }

    @Test("A replay streams a recorded stream in the chunks it was recorded in, single-pass like the original")
    func aReplayStreamsTheRecordedChunks() async throws {
        let sent = [Data("{\"a\":1}\n".utf8), Data("{\"b\":2}\n{\"c\"".utf8), Data(":3}\n".utf8)]
        let cassette = Cassette()
        let recorder = RecordingTransport(over: ScriptedTransport([.streamed(chunks: sent)]), into: cassette)
        _ = try await Self.chunks(of: try await recorder.send(HTTPRequest(url: Self.url)).body)
        let response = try await Self.replay(cassette).send(HTTPRequest(url: Self.url))
        #expect(response.body.bufferedData == nil)
        #expect(!response.body.isReplayable)
        #expect(try await Self.chunks(of: response.body) == sent)
    }

    @Test("A stream that fails mid-body is recorded with the bytes that came and its error, and replays both")
    func aStreamFailingMidBodyReplaysItsFailure() async throws {
        let sent = [Data("first ".utf8), Data("second ".utf8)]
        let cassette = Cassette()
        let recorder = RecordingTransport(
            over: ScriptedTransport([.streamed(chunks: sent, then: .fail(URLError(.networkConnectionLost)))]),
            into: cassette)
        let recorded = try await recorder.send(HTTPRequest(url: Self.url))
        await #expect(throws: URLError(.networkConnectionLost)) { _ = try await Self.chunks(of: recorded.body) }
        let entry = try #require(cassette.entries.first)
        #expect(entry.response.status == 200)
        #expect(entry.response.errorKind == "URLError")
        #expect(entry.response.errorCode == URLError.networkConnectionLost.rawValue)
        #expect(entry.response.content.chunks == sent.map(\.count))

        let replayed = try await Self.replay(cassette).send(HTTPRequest(url: Self.url))
        var iterator = replayed.body.makeAsyncIterator()
        #expect(try await iterator.next() == sent[0])
        #expect(try await iterator.next() == sent[1])
        await #expect(throws: URLError(.networkConnectionLost)) { _ = try await iterator.next() }
    }

    @Test("A transport error is recorded as a failed entry (status 0, its kind and code) and replayed as itself")
    func aTransportErrorIsRecordedAndReplayed() async throws {
        let cassette = Cassette()
        let recorder = RecordingTransport(over: ScriptedTransport([.failure(URLError(.timedOut))]), into: cassette)
        await #expect(throws: URLError(.timedOut)) { _ = try await recorder.send(HTTPRequest(url: Self.url)) }
        let entry = try #require(cassette.entries.first)
        #expect(entry.response.status == 0)
        #expect(entry.response.errorKind == "URLError")
        #expect(entry.response.errorCode == URLError.timedOut.rawValue)
        #expect(entry.response.error?.contains("timedOut") == true)
        await #expect(throws: URLError(.timedOut)) {
            _ = try await Self.replay(cassette).send(HTTPRequest(url: Self.url))
        }
    }

    @Test("An error of the caller's own type is replayed as a recorded failure naming its kind, its words redacted")
    func anOtherErrorIsReplayedAsARecordedFailure() async throws {
        struct UpstreamRefused: Error, CustomStringConvertible {
            var description: String { "refused: password=hunter2-Secret-77" }
        }
        let cassette = Cassette()
        let recorder = RecordingTransport(over: ScriptedTransport([.failure(UpstreamRefused())]), into: cassette)
        await #expect(throws: UpstreamRefused.self) { _ = try await recorder.send(HTTPRequest(url: Self.url)) }
        #expect(try !harText(cassette).contains("hunter2"))
        await #expect {
            _ = try await Self.replay(cassette).send(HTTPRequest(url: Self.url))
        } throws: { error in
            guard let error = error as? CassetteError, error.isRecordedFailure, error.entry == 0,
                error.kind == "UpstreamRefused", let message = error.reason
            else {
                return false
            }
            return message.contains("<redacted-1>") && !message.contains("hunter2")
        }
    }

    @Test("A request its caller gave up on replays unanswered until the replay's caller gives up too")
    func aCancelledRequestReplaysUnansweredUntilCancelled() async throws {
        let cassette = Cassette()
        let recorder = RecordingTransport(over: ScriptedTransport([.failure(CancellationError())]), into: cassette)
        await #expect(throws: CancellationError.self) { _ = try await recorder.send(HTTPRequest(url: Self.url)) }
        #expect(cassette.entries.first?.response.errorKind == "cancelled")
        let replay = try Self.replay(cassette)
        let call = Task { try await replay.send(HTTPRequest(url: Self.url)) }
        call.cancel()
        await #expect(throws: CancellationError.self) { _ = try await call.value }
    }

    @Test("A streamed request body reaches the transport as a stream, unchanged, and is recorded")
    func aStreamedRequestBodyStaysAStream() async throws {
        /// Reads the body as a transport does, and says whether it came as a stream.
        struct StreamReader: HTTPTransport {
            func send(_ request: HTTPRequest) async throws -> HTTPResponse {
                let streamed = request.body?.bufferedData == nil
                let bytes = try await request.body?.collect(upTo: 1 << 20).count ?? 0
                return HTTPResponse(status: 200, body: HTTPBody(Data("streamed=\(streamed) bytes=\(bytes)".utf8)))
            }
        }
        let parts = [Data("{\"name\":".utf8), Data("\"ann\"}".utf8)]
        let cassette = Cassette()
        let recorder = RecordingTransport(over: StreamReader(), into: cassette)
        let body = HTTPBody(stream: parts.async, length: nil)
        let request = HTTPRequest(
            method: .post, url: Self.url, fields: [.contentType: "application/json"], body: body)
        let answer = try await recorder.send(request).body.collect(upTo: 100)
        #expect(String(decoding: answer, as: UTF8.self) == "streamed=true bytes=14")
        #expect(cassette.entries.first?.request.postData?.text == #"{"name":"ann"}"#)
        #expect(cassette.entries.first?.request.bodySize == 14)
    }

    @Test("A body past the recording limit reaches the caller whole and is recorded as a summary of its size")
    func aBodyPastTheLimitPassesWholeAndIsSummarised() async throws {
        let cassette = Cassette()
        let recorder = RecordingTransport(
            over: ScriptedTransport([.streamed(chunks: [Data(count: 600), Data(count: 600)])]),
            into: cassette, bodyLimit: 1_000)
        let response = try await recorder.send(HTTPRequest(url: Self.url))
        #expect(try await response.body.collect(upTo: 10_000).count == 1_200)
        let content = try #require(cassette.entries.first?.response.content)
        #expect(content.size == 1_200)
        #expect(content.text == "<body: 1200 bytes, past the recording limit of 1000, not recorded>")
        #expect(content.chunks == nil)
    }

    @Test("A streamed body dropped unread is recorded as abandoned; a replay read past that point says so")
    func aDroppedBodyIsRecordedAsAbandoned() async throws {
        let cassette = Cassette()
        let recorder = RecordingTransport(
            over: ScriptedTransport([.streamed(chunks: [Data("one".utf8), Data("two".utf8)])]), into: cassette)
        do {
            let response = try await recorder.send(HTTPRequest(url: Self.url))
            var iterator = response.body.makeAsyncIterator()
            _ = try await iterator.next()
        }
        let entry = try #require(cassette.entries.first)
        #expect(entry.response.errorKind == "abandoned")
        #expect(entry.response.content.text == "one")
        let replayed = try await Self.replay(cassette).send(HTTPRequest(url: Self.url))
        var iterator = replayed.body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("one".utf8))
        await #expect(throws: CassetteError.recordedFailure(entry: 0, kind: "abandoned", message: "Abandoned()")) {
            _ = try await iterator.next()
        }
    }
}

extension Array where Element == Data {
    /// The chunks as an async sequence.
    var async: AsyncStream<Data> {
        let chunks = self
        return AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineTesting
import Testing

@Suite struct RecordingTransportTests {
    @Test func aStreamedResponseIsHandedOnUnchangedAsABufferedBody() async throws {
        let chunks = (0..<5).map { Data("chunk \($0);".utf8) }
        let cassette = Cassette()
        let recorder = RecordingTransport(
            over: ScriptedTransport([.streamed(200, headers: ["Content-Type": "text/plain"], chunks: chunks)]),
            into: cassette
        )
        let response = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/stream")))
        let expected = chunks.reduce(Data(), +)
        #expect(response.body.bufferedData == expected)
        #expect(cassette.entries.first?.response.content.text == String(decoding: expected, as: UTF8.self))
    }

    @Test func aBodyPastTheLimitIsATypedErrorAndRecordsNothing() async throws {
        let cassette = Cassette()
        let recorder = RecordingTransport(
            over: ScriptedTransport([.streamed(chunks: [Data(count: 600), Data(count: 600)])]),
            into: cassette,
            bodyLimit: 1_000
        )
        await #expect(throws: CassetteError.bodyTooLarge(limit: 1_000)) {
            _ = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/big")))
        }
        #expect(cassette.entries.isEmpty)
    }

    @Test func aFailedExchangeRecordsNothingAndRethrows() async throws {
        let cassette = Cassette()
        let recorder = RecordingTransport(over: ScriptedTransport([.failure(URLError(.timedOut))]), into: cassette)
        await #expect(throws: URLError.self) {
            _ = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/slow")))
        }
        #expect(cassette.entries.isEmpty)
    }

    @Test func theBaseTransportGetsTheRequestUnredacted() async throws {
        let transport = ScriptedTransport([.ok()])
        let recorder = RecordingTransport(over: transport, into: Cassette())
        _ = try await recorder.send(
            HTTPRequest(url: testURL("https://api.example.com/me"), fields: ["Authorization": "Bearer live-token"])
        )
        #expect(transport.requests.first?.fields["Authorization"] == "Bearer live-token")
    }

    @Test func concurrentExchangesAreEachRecordedOnce() async throws {
        let cassette = Cassette()
        let recorder = RecordingTransport(over: ScriptedTransport { _ in .ok("x") }, into: cassette)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { _ = try await recorder.send(HTTPRequest(url: testURL("https://a.example/\(index)"))) }
            }
            try await group.waitForAll()
        }
        #expect(Set(cassette.entries.map(\.request.url)).count == 50)
    }
}

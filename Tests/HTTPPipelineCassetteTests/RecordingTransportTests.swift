import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineTesting
import Testing

@Suite struct RecordingTransportTests {
    @Test func theBaseTransportGetsTheRequestUnredacted() async throws {
        let transport = ScriptedTransport([.ok()])
        let recorder = RecordingTransport(over: transport, into: Cassette())
        _ = try await recorder.send(
            HTTPRequest(url: testURL("https://api.example.com/me"), fields: [.authorization: "Bearer live-token"])
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

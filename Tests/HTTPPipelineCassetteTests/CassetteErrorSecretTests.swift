import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineLogging
import HTTPPipelineRedaction
import HTTPPipelineTesting
import Testing

/// A miss names the closest entry and what differed, never a secret: neither the live request's
/// (when the recording judged a value secret and the replay's redaction would not) nor one kept
/// in a file recorded by another tool.
@Suite struct CassetteErrorSecretTests {
    @Test func aLiveValueTheRecordingRedactedIsShownAsTheMarkWhateverTheReplaysRedaction() async throws {
        let cassette = Cassette(redaction: Redaction.default.redactingQueryItems(["tenant"]))
        let recorder = RecordingTransport(over: ScriptedTransport([.ok("{}")]), into: cassette)
        _ = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/books?tenant=ACME-77&page=1")))

        // Replayed with the default redaction, which does not know `tenant` is secret.
        let replay = try ReplayingTransport(try Cassette(data: try cassette.harData()))
        do {
            _ = try await replay.send(
                HTTPRequest(url: testURL("https://api.example.com/books?tenant=ZETA-4711&page=2")))
            Issue.record("an unmatched request must throw")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("page"), "the difference is named")
            #expect(!message.contains("ZETA-4711"))
            #expect(!message.contains("ACME-77"))
        }
    }

    @Test func aSecretKeptInAnotherToolsFileNeverReachesAnErrorMessage() async throws {
        let request = HAR.Request(
            method: "GET", url: "https://api.example.com/me?page=1",
            headers: [HAR.NameValue(name: "Authorization", value: "Bearer browser-real-secret-9f8e7d6c")],
            queryString: [HAR.NameValue(name: "page", value: "1")], postData: nil, bodySize: 0)
        let entry = HAR.Entry(
            startedDateTime: "2026-12-01T10:00:00.000Z", time: 1, request: request,
            response: HAR.Response(
                status: 200, headers: [], content: HAR.Content(size: 0, mimeType: "text/plain", text: "")),
            timings: HAR.Timings(send: 0, wait: 1, receive: 0))
        let replay = try ReplayingTransport(
            Cassette(entries: [entry]), rules: .default.matchingHeaders(["authorization"]))
        var live = HTTPRequest(url: testURL("https://api.example.com/me?page=2"))
        live.fields["Authorization"] = "Bearer live-secret-1a2b3c4d5e"
        do {
            _ = try await replay.send(live)
            Issue.record("an unmatched request must throw")
        } catch {
            let message = String(describing: error)
            #expect(!message.contains("browser-real-secret-9f8e7d6c"))
            #expect(!message.contains("live-secret-1a2b3c4d5e"))
        }
    }
}

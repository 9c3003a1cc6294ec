import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineTesting
import Testing

@Suite struct CassetteTraitTests {
    static let books = #"{"books":["Dune"]}"#

    /// Replays `Cassettes/books.har` beside this file (written once with
    /// `HTTP_PIPELINE_CASSETTES=record swift test --filter CassetteTraitTests`).
    @Test(.cassette("books"))
    func aTestWithTheTraitIsAnsweredFromItsCassette() async throws {
        let live = ScriptedTransport([.ok(Self.books, headers: ["Content-Type": "application/json"])])
        let transport = try CassetteTrait.transport(over: live)
        var request = HTTPRequest(url: try #require(URL(string: "https://api.example.com/books")))
        request.fields["Authorization"] = "Bearer tok-live-\(UUID().uuidString)"
        let response = try await transport.send(request)
        #expect(response.status == 200)
        #expect(String(decoding: try await response.body.collect(upTo: 1 << 20), as: UTF8.self) == Self.books)
        if CassetteTrait.environmentMode() == .replay {
            #expect(live.requests.isEmpty, "replayed: nothing reached the live transport")
        }
    }

    @Test func recordingWritesTheRedactedFileWhenTheTestEndsAndReplayingAnswersFromIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trait-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let filePath = folder.appendingPathComponent("SomeTests.swift").path
        let test = try #require(Test.current)
        let url = try #require(URL(string: "https://api.example.com/me"))

        let live = ScriptedTransport([.ok("ada", headers: ["Content-Type": "text/plain"])])
        let recording: CassetteTrait = .cassette("me", mode: .record, filePath: filePath)
        try await recording.provideScope(for: test, testCase: nil) {
            var request = HTTPRequest(url: url)
            request.fields["Authorization"] = "Bearer tok-recorded-secret-1234567890"
            _ = try await CassetteTrait.transport(over: live).send(request)
        }
        let file = folder.appendingPathComponent("Cassettes/me.har")
        let written = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(written.contains("\"ada\""))
        #expect(!written.contains("tok-recorded-secret-1234567890"))

        let unused = ScriptedTransport([])
        let replaying: CassetteTrait = .cassette("me", mode: .replay, filePath: filePath)
        try await replaying.provideScope(for: test, testCase: nil) {
            let response = try await CassetteTrait.transport(over: unused).send(HTTPRequest(url: url))
            #expect(try await response.body.collect(upTo: 100) == Data("ada".utf8))
        }
        #expect(unused.requests.isEmpty)
    }

    @Test func replayingAMissingFileIsATypedError() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trait-\(UUID().uuidString)")
        let trait: CassetteTrait = .cassette(
            "absent", mode: .replay, filePath: folder.appendingPathComponent("T.swift").path)
        await #expect(throws: CassetteError.self) {
            try await trait.provideScope(for: try #require(Test.current), testCase: nil) {}
        }
    }

    @Test func askingForTheTransportOutsideACassetteTestIsATypedError() {
        #expect(throws: CassetteError.notInCassetteTest) {
            _ = try CassetteTrait.transport(over: ScriptedTransport([]))
        }
    }

    @Test func theEnvironmentChoosesTheModeAndReplayIsTheDefault() {
        #expect(CassetteTrait.environmentMode([:]) == .replay)
        #expect(CassetteTrait.environmentMode(["HTTP_PIPELINE_CASSETTES": "record"]) == .record)
        #expect(CassetteTrait.environmentMode(["HTTP_PIPELINE_CASSETTES": "record-missing"]) == .recordMissing)
        #expect(CassetteTrait.environmentMode(["HTTP_PIPELINE_CASSETTES": "bogus"]) == .replay)
    }
}

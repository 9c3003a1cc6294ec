import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineRedaction
import HTTPPipelineTesting
import Testing

@Suite struct CassetteNameTests {
    @Test(arguments: ["../escaped", "deeper/../../escaped", "/tmp/escaped", ""])
    func aNameThatLeadsOutOfTheCassettesFolderIsRefusedAndNothingIsWritten(name: String) async throws {
        let trait = CassetteTrait.cassette(name, mode: .record)
        let test = try #require(Test.current)
        let error = await #expect(throws: CassetteError.self) {
            try await trait.provideScope(for: test, testCase: nil) {}
        }
        #expect(error?.isFileError == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: trait.file.path), "nothing written at \(trait.file.path)")
    }

    @Test func aNameWithASubfolderStaysInsideTheCassettesFolder() {
        let trait = CassetteTrait.cassette("catalog/first-page", mode: .replay)
        #expect(trait.file.pathComponents.suffix(3) == ["Cassettes", "catalog", "first-page.har"])
    }
}

@Suite struct CassetteKeptFieldTests {
    @Test func aBodyFieldATestNeedsIsKeptWhenItsRedactionAllowsIt() async throws {
        let body = Data(#"{"session_id":"s-42","password":"hunter2"}"#.utf8)
        func recorded(_ redaction: Redaction) async throws -> String {
            let cassette = Cassette(redaction: redaction)
            let live = ScriptedTransport([
                .ok(String(decoding: body, as: UTF8.self), headers: ["Content-Type": "application/json"])
            ])
            _ = try await RecordingTransport(over: live, into: cassette).send(
                HTTPRequest(url: #require(URL(string: "https://api.example.com/login"))))
            return String(decoding: try cassette.harData(), as: UTF8.self)
        }
        let hidden = try await recorded(.default)
        #expect(!hidden.contains("s-42") && !hidden.contains("hunter2"))
        let kept = try await recorded(Redaction.default.allowingBodyFields(["session_id"]))
        #expect(kept.contains("s-42"), "the allowed field is readable")
        #expect(!kept.contains("hunter2"), "the others stay hidden")
    }
}

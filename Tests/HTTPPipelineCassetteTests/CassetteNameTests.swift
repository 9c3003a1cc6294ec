import Foundation
import HTTPPipelineCassette
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

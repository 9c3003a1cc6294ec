import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import Testing

@Suite struct CassetteLoadingTests {
    /// The error loading `text` throws, or `nil`.
    func loadingError(_ text: String) -> CassetteError? {
        do {
            _ = try Cassette(data: Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func aCassetteCutShortNamesTheEntryItStopsIn() async throws {
        let whole = try await recordedCassette(
            (0..<3).map { HTTPRequest(url: testURL("https://api.example.com/items/\($0)")) }
        ).harData()
        let text = String(decoding: whole, as: UTF8.self)
        // Cut inside the third entry's response.
        let thirdResponse = try #require(text.range(of: "items/2")).upperBound
        let cut = String(text[..<thirdResponse])
        #expect(loadingError(cut) == .malformed(entry: 2, reason: "not whole JSON"))
    }

    @Test func brokenJSONInsideAnEntryNamesThatEntry() async throws {
        let whole = try await recordedCassette(
            (0..<3).map { HTTPRequest(url: testURL("https://api.example.com/items/\($0)")) }
        ).harData()
        let text = String(decoding: whole, as: UTF8.self)
            .replacingOccurrences(
                of: #""url" : "https://api.example.com/items/1""#,
                with: #""url" : "https://api.example.com/items/1" ,,"#)
        #expect(loadingError(text) == .malformed(entry: 1, reason: "not whole JSON"))
    }

    @Test func aMissingRequiredFieldNamesTheEntryAndTheField() throws {
        let text = browserHAR.replacingOccurrences(of: #""statusText": "No Content", "#, with: "")
        #expect(loadingError(text) == .malformed(entry: 1, reason: "missing log.entries[1].response.statusText"))
    }

    @Test func aValueOfTheWrongTypeNamesTheEntry() throws {
        let text = browserHAR.replacingOccurrences(of: #""status": 204"#, with: #""status": "204""#)
        guard let error = loadingError(text), error.isMalformed, let entry = error.entry else {
            Issue.record("expected malformed")
            return
        }
        #expect(entry == 1)
    }

    @Test func badBase64NamesTheEntry() throws {
        let text = browserHAR.replacingOccurrences(of: #""text": "AAEC""#, with: #""text": "not base64!""#)
        #expect(loadingError(text) == .badBase64(entry: 1))
    }

    @Test func bytesThatAreNotAHARAreATypedErrorOutsideAnyEntry() {
        #expect(loadingError("") == .malformed(entry: nil, reason: "not whole JSON"))
        #expect(loadingError("[1, 2]") != nil)
        #expect(loadingError(#"{"log": {"version": "1.2"}}"#) == .malformed(entry: nil, reason: "missing log.creator"))
    }

    @Test func aMissingFileIsATypedErrorNamingThePath() {
        let missing = temporaryFile("missing.har")
        #expect(throws: CassetteError.self) { try Cassette(contentsOf: missing) }
        do {
            _ = try Cassette(contentsOf: missing)
        } catch {
            guard error.isFileError, let path = error.path else {
                Issue.record("expected a file error")
                return
            }
            #expect(path == missing.path)
        }
    }

    @Test func aWrittenCassetteLoadsBackEqual() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(url: testURL("https://api.example.com/a?x=1")),
            HTTPRequest(method: .put, url: testURL("https://api.example.com/b"), body: HTTPBody(Data("text".utf8))),
        ])
        let file = temporaryFile("nested/folder/round.har")
        try cassette.write(to: file)
        try cassette.write(to: file)  // over an existing file, atomically
        #expect(try Cassette(contentsOf: file).entries == cassette.entries)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(leftovers == ["round.har"])
    }
}

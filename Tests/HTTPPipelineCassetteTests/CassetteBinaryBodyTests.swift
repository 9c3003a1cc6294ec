import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineGzip
import HTTPPipelineTesting
import Testing

/// Bodies the redaction engine cannot read as they cross the wire: decoded first when they are
/// gzip or deflate, written as a summary of their size when they still cannot be read, kept as
/// bytes only for pictures, sound, video and fonts.
@Suite struct CassetteBinaryBodyTests {
    static let token = "tok-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
    static let json = Data(#"{"access_token":"\#(token)","user":"ada"}"#.utf8)

    /// The written file, as text, and the forms of the token that must not be in it.
    func file(of cassette: Cassette) throws -> String {
        String(decoding: try cassette.harData(), as: UTF8.self)
    }

    func leaks(_ text: String) -> [String] {
        let secret = Data(Self.token.utf8)
        // The token itself, and its base64 at each of the three byte offsets it can start at.
        let shifted = (0..<3).map { offset in
            Data(repeating: 0x20, count: offset) + secret
        }
        let encoded = shifted.map { $0.base64EncodedString() }.map { String($0.dropFirst(4).dropLast(4)) }
        return ([Self.token] + encoded).filter { text.contains($0) }
    }

    @Test func aGzipResponseIsRecordedDecodedRedactedAndReplayedPlain() async throws {
        let compressed = try Deflater.compress(Self.json, format: .gzip)
        let reply = ScriptedTransport.Reply.status(
            200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"], body: compressed)
        let cassette = Cassette()
        let recorder = RecordingTransport(over: ScriptedTransport([reply]), into: cassette)
        let live = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/token")))
        #expect(live.body.bufferedData == compressed, "the caller gets the bytes as they came")

        let text = try file(of: cassette)
        #expect(leaks(text).isEmpty)
        let entry = try #require(cassette.entries.first)
        #expect(entry.response.content.encoding == nil)
        #expect(entry.response.content.text?.contains("\"user\":\"ada\"") == true)
        #expect(!entry.response.headers.contains { $0.name.lowercased() == "content-encoding" })

        let replay = try ReplayingTransport(try Cassette(data: try cassette.harData()))
        let replayed = try await replay.send(HTTPRequest(url: testURL("https://api.example.com/token")))
        #expect(replayed.fields["Content-Encoding"] == nil)
        #expect(String(decoding: replayed.body.bufferedData ?? Data(), as: UTF8.self).contains("\"user\":\"ada\""))
    }

    @Test(arguments: [
        ("application/octet-stream", nil as String?),
        ("application/json", "br"),
        ("application/x-protobuf", nil),
    ])
    func aBodyTheEngineCannotReadIsWrittenAsItsSizeOnly(contentType: String, coding: String?) async throws {
        var headers = ["Content-Type": contentType]
        if let coding { headers["Content-Encoding"] = coding }
        let body = Data([0x00, 0x01]) + Self.json
        let cassette = Cassette()
        let recorder = RecordingTransport(
            over: ScriptedTransport([.status(200, headers: headers, body: body)]), into: cassette)
        var request = HTTPRequest(method: .post, url: testURL("https://api.example.com/exchange"))
        request.fields["Content-Type"] = contentType
        request.body = HTTPBody(body)
        _ = try await recorder.send(request)

        let text = try file(of: cassette)
        #expect(leaks(text).isEmpty)
        let entry = try #require(cassette.entries.first)
        #expect(entry.response.content.encoding == nil)
        #expect(entry.response.content.text == "<binary body: \(body.count) bytes, not recorded>")
        #expect(entry.request.postData?.text == "<binary body: \(body.count) bytes, not recorded>")
    }

    @Test func aPictureIsKeptAsItsBytes() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
        let cassette = Cassette()
        let recorder = RecordingTransport(
            over: ScriptedTransport([.status(200, headers: ["Content-Type": "image/png"], body: png)]), into: cassette)
        _ = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/cover.png")))
        let entry = try #require(cassette.entries.first)
        #expect(entry.response.content.encoding == "base64")
        #expect(entry.response.content.text == png.base64EncodedString())
    }
}

@Suite struct CassetteKeptTypesTests {
    @Test("A media type the caller names is kept as bytes; a longer type that merely starts with it is not")
    func namedTypesAreKeptExactly() async throws {
        let bytes = Data((0..<256).map { UInt8($0) })
        let cassette = Cassette(keepingBytesOf: ["application/octet-stream"])
        let recorder = RecordingTransport(
            over: ScriptedTransport { request in
                .status(
                    200,
                    headers: [
                        "Content-Type": request.url.lastPathComponent == "a"
                            ? "application/octet-stream" : "application/octet-stream-x"
                    ], body: bytes)
            },
            into: cassette)
        _ = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/a")))
        _ = try await recorder.send(HTTPRequest(url: testURL("https://api.example.com/b")))
        let contents = cassette.entries.map(\.response.content)
        #expect(contents.first?.encoding == "base64")
        #expect(contents.first?.text.flatMap { Data(base64Encoded: $0) } == bytes)
        #expect(contents.last?.text == "<binary body: 256 bytes, not recorded>")
        let replayed = try await ReplayingTransport(cassette).send(
            HTTPRequest(url: testURL("https://api.example.com/a")))
        #expect(replayed.body.bufferedData == bytes)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineRedaction
import HTTPPipelineTesting
import Testing

/// How big a record may grow: URLs and header values are cut to their limits, after redaction.
@Suite struct LoggingLimitsTests {
    /// Logs one exchange at `.headers` and returns the sink.
    func log(
        _ request: HTTPRequest,
        reply: ScriptedTransport.Reply = .ok(),
        middleware: (InMemoryLogSink) -> LoggingMiddleware = { LoggingMiddleware(level: .headers, sink: $0) }
    ) async throws -> InMemoryLogSink {
        let sink = InMemoryLogSink()
        let logging = middleware(sink)
        let pipeline = Pipeline(transport: ScriptedTransport([reply])) { logging }
        _ = try await pipeline.send(request)
        return sink
    }

    @Test("A 2.4 MB URL gives a bounded record that notes the cut and shows no secret")
    func enormousURLIsCut() async throws {
        let filler = String(repeating: "a", count: 2_400_000)
        let near = String(repeating: "b", count: 4_000)
        let address =
            "https://user:hunter2@api.example.invalid/search?access_token=tok-SECRET-U1&q=\(near)"
            + "&client_secret=tok-SECRET-U2&p=\(filler)&sig=tok-SECRET-U3"
        let url = try #require(URL(string: address))
        let sink = try await log(HTTPRequest(url: url))
        let record = try #require(sink.records.first)
        #expect(record.url.utf8.count <= 4_096 + 48, "the URL in the record: \(record.url.utf8.count) bytes")
        #expect(
            record.url.hasPrefix("https://<redacted>:<redacted>@api.example.invalid/search?access_token=<redacted>"))
        #expect(record.url.hasSuffix("; limit 4096)"), "the cut is noted: \(record.url.suffix(40))")
        #expect(sink.text.utf8.count < 8_192, "the whole record: \(sink.text.utf8.count) bytes")
        #expect(!sink.text.contains("tok-SECRET") && !sink.text.contains("hunter2"))
    }

    @Test("A 5 MB header value gives a bounded record that notes the cut and shows no secret")
    func enormousHeaderValueIsCut() async throws {
        let filler = String(repeating: "word ", count: 1_000_000)
        let value = String(repeating: "v", count: 1_000) + " token=tok-SECRET-H1 " + filler + " token=tok-SECRET-H2"
        var request = HTTPRequest(url: try #require(URL(string: "https://api.example.invalid/books")))
        request.fields["X-Huge"] = value
        let reply = ScriptedTransport.Reply.status(200, headers: ["X-Echo": value])
        let sink = try await log(request, reply: reply)
        let record = try #require(sink.records.first)
        let huge = try #require(record.requestHeaders.first { $0.name == "X-Huge" })
        let echo = try #require(record.responseHeaders.first { $0.name == "X-Echo" })
        for field in [huge, echo] {
            #expect(field.value.utf8.count <= 1_024 + 48, "\(field.name): \(field.value.utf8.count) bytes")
            #expect(field.value.hasSuffix("; limit 1024)"), "the cut is noted: \(field.value.suffix(40))")
        }
        #expect(sink.text.utf8.count < 8_192, "the whole record: \(sink.text.utf8.count) bytes")
        #expect(!sink.text.contains("tok-SECRET"))
    }

    /// A secret planted in the inputs below, checked for in pieces.
    static let secret = "Qz8w3N5v7x9K"

    /// Whether any four characters in a row of the secret, or the user name, show.
    static func leaks(_ text: String) -> Bool {
        let characters = Array(secret)
        let pieces = (0...(characters.count - 4)).map { String(characters[$0..<($0 + 4)]) }
        return text.contains("alice") || pieces.contains { text.contains($0) }
    }

    /// Secrets of every kind a URL's query and fragment hold, then padding to make it long.
    static let urlTail =
        "&sig=\(secret)&x=1&next=https%3A%2F%2Falice%3A\(secret)%40h%2F&token=\(secret);jsessionid=\(secret)"
        + "#access_token=\(secret)&y=2" + String(repeating: "&pad=zz", count: 100)

    /// Secrets of every kind free text holds, then more words.
    static let textTail =
        " token=\(secret) and alice:\(secret)@h.example, Bearer Qz8w/3N5v7x9K2m4 then"
        + " https://alice:\(secret)@h/?code=\(secret) \"client_secret\": \"\(secret)\" "
        + String(repeating: "more words ", count: 100) + "password: \(secret)"

    // A long hidden value shrinks to the mark, so text from the very end of what is scanned (four
    // times the limit) is shown: `shift` moves that end across every position in the tail.

    @Test("A cut in a URL never shows part of a secret, wherever it falls", arguments: Array(0...160))
    func urlCutNeverShowsASecret(shift: Int) async throws {
        let hidden = String(repeating: "Z", count: 610 + shift)
        let url = try #require(URL(string: "https://h.example/?access_token=\(hidden)\(Self.urlTail)"))
        let sink = try await log(HTTPRequest(url: url)) { LoggingMiddleware(level: .basic, sink: $0, urlLimit: 200) }
        let shown = try #require(sink.records.first).url
        #expect(!Self.leaks(shown), "shift \(shift): \(shown)")
        #expect(shown.hasSuffix(" more bytes; limit 200)"))
        if let note = shown.range(of: "… (", options: .backwards) {
            #expect(shown[..<note.lowerBound].utf8.count <= 200, "shift \(shift): \(shown)")
        }
    }

    @Test("A cut in a header value never shows part of a secret, wherever it falls", arguments: Array(0...160))
    func headerValueCutNeverShowsASecret(shift: Int) async throws {
        let hidden = String(repeating: "Z", count: 610 + shift)
        var request = HTTPRequest(url: try #require(URL(string: "https://h.example/")))
        request.fields["X-Note"] = "token=\(hidden)\(Self.textTail)"
        let sink = try await log(request) { LoggingMiddleware(level: .headers, sink: $0, headerValueLimit: 200) }
        let record = try #require(sink.records.first)
        let shown = try #require(record.requestHeaders.first { $0.name == "X-Note" }).value
        #expect(!Self.leaks(shown), "shift \(shift): \(shown)")
        #expect(shown.hasSuffix(" more bytes; limit 200)"))
    }

    @Test("A URL longer than its limit is cut on a character boundary with a note of what was left out")
    func urlLimitIsConfigurable() async throws {
        let long = try #require(URL(string: "https://h.example/" + String(repeating: "a", count: 100)))
        let cut = try await log(HTTPRequest(url: long)) { LoggingMiddleware(level: .basic, sink: $0, urlLimit: 30) }
        #expect(cut.records.first?.url == "https://h.example/aaaaaaaaaaaa… (88 more bytes; limit 30)")
        let accented = try #require(URL(string: "https://h.example/%C3%A9?q=" + String(repeating: "é", count: 20)))
        let short = try await log(HTTPRequest(url: accented)) { LoggingMiddleware(level: .basic, sink: $0) }
        #expect(short.records.first?.url == accented.absoluteString, "a URL within its limit is untouched")
    }

    @Test("A header value is cut after redaction; an allowed one is cut unredacted; a secret one stays the mark")
    func headerValueLimitIsConfigurable() async throws {
        var request = HTTPRequest(url: try #require(URL(string: "https://h.example/")))
        request.fields["X-Api-Key"] = String(repeating: "k", count: 2_000)
        request.fields["Authorization"] = "Bearer \(Self.secret)\(Self.secret)"
        request.fields["X-Note"] = "token=\(Self.secret) and then some"
        request.fields["X-Short"] = "short"
        let sink = try await log(request) {
            LoggingMiddleware(
                level: .headers, sink: $0, redaction: Redaction.default.allowingHeaders(["X-Api-Key"]),
                headerValueLimit: 20)
        }
        let fields = try #require(sink.records.first).requestHeaders
        let value = { (name: String) in fields.first { $0.name == name }?.value }
        #expect(value("X-Api-Key") == String(repeating: "k", count: 20) + "… (1980 more bytes; limit 20)")
        #expect(value("Authorization") == Redaction.mark)
        #expect(value("X-Note") == "token=<redacted> and… (10 more bytes; limit 20)")
        #expect(value("X-Short") == "short")
    }

    /// An error whose description is enormous, with a secret far into it.
    struct VerboseError: Error, CustomStringConvertible {
        var description: String {
            "decoding failed at " + String(repeating: "items[0].name ", count: 20_000) + " token=tok-SECRET-E1"
        }
    }

    @Test("An enormous error description is cut to the header value limit, and the note names the limit")
    func errorDescriptionIsCut() async throws {
        let request = HTTPRequest(url: try #require(URL(string: "https://h.example/")))
        let sink = InMemoryLogSink()
        let pipeline = Pipeline(transport: ScriptedTransport([.failure(VerboseError())])) {
            LoggingMiddleware(level: .headers, sink: sink)
        }
        _ = try? await pipeline.send(request)
        let record = try #require(sink.records.first)
        let description = try #require(record.errorDescription)
        #expect(description.utf8.count <= 1_024 + 48, "\(description.utf8.count) bytes")
        #expect(description.hasSuffix("; limit 1024)"), "\(description.suffix(60))")
        #expect(!description.contains("tok-SECRET"))
    }

    @Test("A record notes the limits its parts were cut to")
    func recordNotesItsLimits() async throws {
        let long = try #require(URL(string: "https://h.example/" + String(repeating: "a", count: 100)))
        let sink = try await log(HTTPRequest(url: long)) {
            LoggingMiddleware(level: .headers, sink: $0, bodyLimit: 77, urlLimit: 30, headerValueLimit: 55)
        }
        let record = try #require(sink.records.first)
        #expect(record.url == "https://h.example/aaaaaaaaaaaa… (88 more bytes; limit 30)")
        #expect(record.limits == HTTPLogRecord.Limits(url: 30, headerValue: 55, body: 77))
    }
}

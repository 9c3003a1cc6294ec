import Foundation
import HTTPPipeline
public import HTTPPipelineLogging

/// Recorded HTTP exchanges, redacted, that a ``RecordingTransport`` fills and a
/// ``ReplayingTransport`` answers from; written and read as a HAR 1.2 file.
///
/// ```swift
/// let cassette = Cassette()
/// let client = RecordingTransport(over: URLSessionTransport(), into: cassette)
/// _ = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/books")!))
/// try cassette.write(to: URL(fileURLWithPath: "Cassettes/books.har"))
/// ```
///
/// Nothing secret is kept in an entry: every header value, the URL and every text body pass
/// through the logs' `Redaction` engine as they are recorded, and each secret it finds becomes a
/// numbered placeholder, `<redacted-1>`, `<redacted-2>`, …, the same secret the same number within
/// the cassette. A gzip or deflate body is decoded first. A body the engine still cannot read is
/// written as a summary of its size, except pictures, sound, video and fonts, kept as base64.
///
/// A cassette is shared by the tasks that record into it: entries are appended under a lock, in
/// the order exchanges complete.
public final class Cassette: Sendable {
    struct State: Sendable {
        var entries: [HAR.Entry]
        var placeholders = Placeholders()
    }

    let state: Locked<State>
    let redactor: CassetteRedactor

    /// An empty cassette, to record into.
    ///
    /// - Parameters:
    ///   - redaction: What is hidden before anything is recorded; the logs' default.
    ///   - mediaTypes: Media types (`application/octet-stream`) or prefixes ending in `/`
    ///     (`application/`) whose bodies the redaction engine cannot read that are kept as their
    ///     bytes, in base64, besides pictures, sound, video and fonts. Name only types you know
    ///     carry no secret: nothing in those bytes is redacted. Any other unreadable body is
    ///     written as a summary of its size.
    public init(redaction: Redaction = .default, keepingBytesOf mediaTypes: [String] = []) {
        state = Locked(State(entries: []))
        var redactor = CassetteRedactor(redaction: redaction)
        redactor.keptBinaryTypes += mediaTypes.map { $0.lowercased() }
        self.redactor = redactor
    }

    /// A cassette with these entries, taken as already redacted.
    ///
    /// - Parameters:
    ///   - entries: The entries.
    ///   - redaction: What is hidden in entries recorded from now on, and in live requests before
    ///     they are compared with these.
    public init(entries: [HAR.Entry], redaction: Redaction = .default) {
        state = Locked(State(entries: entries))
        redactor = CassetteRedactor(redaction: redaction)
    }

    /// The entries recorded so far, in the order their exchanges completed.
    public var entries: [HAR.Entry] {
        state.withLock { $0.entries }
    }

    /// Appends an entry, under the lock.
    func append(_ entry: HAR.Entry) {
        state.withLock { $0.entries.append(entry) }
    }
}

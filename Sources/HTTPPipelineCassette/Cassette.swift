import Foundation
import HTTPPipeline
public import HTTPPipelineRedaction

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
/// A cassette is shared by the tasks that record into it: entries are added under a lock, in
/// the order their requests were sent (an entry is written once its exchange completes, in its
/// place among the others), so that a replay serves repeated requests in the order a client
/// sends them.
public final class Cassette: Sendable {
    struct State: Sendable {
        var entries: [HAR.Entry]
        /// The order each entry's request was sent in, parallel to `entries`, ascending.
        var sequences: [Int]
        var nextSequence: Int
        var placeholders: Placeholders

        init(entries: [HAR.Entry]) {
            self.entries = entries
            sequences = Array(entries.indices)
            nextSequence = entries.count
            // Wherever a placeholder stands in an entry (URL, headers, cookies, bodies, errors).
            let text =
                entries.isEmpty ? "" : (try? JSONEncoder().encode(entries)).map { String(decoding: $0, as: UTF8.self) }
            placeholders = Placeholders(after: Placeholders.numbers(in: text ?? "").max() ?? 0)
        }

        /// Takes the number of a request being sent now.
        mutating func takeSequence() -> Int {
            defer { nextSequence += 1 }
            return nextSequence
        }

        /// Adds an entry after every entry whose request was sent before its own; returns its index.
        mutating func insert(_ entry: HAR.Entry, sequence: Int) -> Int {
            var position = entries.count
            while position > 0, sequences[position - 1] > sequence { position -= 1 }
            entries.insert(entry, at: position)
            sequences.insert(sequence, at: position)
            return position
        }
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
    package init(entries: [HAR.Entry], redaction: Redaction = .default) {
        state = Locked(State(entries: entries))
        redactor = CassetteRedactor(redaction: redaction)
    }

    /// The entries recorded so far, in the order their requests reached the recording transport
    /// (which may differ from the order a transport below put them on the wire). An entry is
    /// added when its exchange is whole, in its place: a request sent earlier but answered later
    /// lands before entries already here.
    package var entries: [HAR.Entry] {
        state.withLock { $0.entries }
    }
}

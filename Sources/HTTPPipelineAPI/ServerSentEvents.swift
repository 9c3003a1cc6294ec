import HTTPPipeline

/// One server-sent event (the `text/event-stream` format of the HTML standard).
public struct ServerSentEvent: Sendable, Equatable {
    /// The event's type: its `event:` field, or `message` when it has none.
    public var type: String
    /// The event's data: its `data:` lines joined with line feeds.
    public var data: String
    /// The last event ID the stream set (`id:`), if any; it carries over to later events.
    public var lastEventID: String?
    /// How long the server asks a client to wait before reconnecting (`retry:`, in
    /// milliseconds), as the stream last set it; like the last event ID, it carries over to later
    /// events, and a `retry:` in a block without data still sets it.
    public var retry: Duration?

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String? = nil, retry: Duration? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.retry = retry
    }
}

/// A response body's server-sent events, as they arrive: for live updates and LLM token
/// streams.
///
/// Parsed as the HTML standard says: fields `event`, `data`, `id`, `retry`; lines starting with
/// `:` are comments (keep-alives); an event is dispatched at a blank line, and one with no data is
/// dropped; a byte-order mark at the start is skipped; an unfinished event at the end of the body
/// is dropped. One event's data may hold at most as many bytes as one line, so a server that sends
/// `data:` lines without end cannot fill memory. Made by ``APIClient/events(_:maximumLineLength:)``.
public struct ServerSentEvents: AsyncSequence, Sendable {
    public typealias Element = ServerSentEvent

    let lines: TextLines

    /// Starts reading the body.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lines: lines.makeAsyncIterator())
    }

    /// Reads events.
    public struct Iterator: AsyncIteratorProtocol {
        var lines: TextLines.Iterator
        var first = true
        var type = ""
        var data: [String] = []
        var hasData = false
        var dataBytes = 0
        var lastEventID: String?
        var retry: Duration?

        /// The next event, or `nil` when the body ends.
        ///
        /// - Throws: As ``TextLines/Iterator/next()`` does.
        public mutating func next() async throws -> ServerSentEvent? {
            while var line = try await lines.next() {
                if first {
                    first = false
                    if line.hasPrefix("\u{FEFF}") { line.removeFirst() }
                }
                if line.isEmpty {
                    defer {
                        type = ""
                        data.removeAll()
                        dataBytes = 0
                        hasData = false
                    }
                    guard hasData else { continue }
                    return ServerSentEvent(
                        type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"),
                        lastEventID: lastEventID, retry: retry)
                }
                if line.hasPrefix(":") { continue }
                let field: Substring
                var value: Substring
                if let colon = line.firstIndex(of: ":") {
                    field = line[..<colon]
                    value = line[line.index(after: colon)...]
                    if value.hasPrefix(" ") { value.removeFirst() }
                } else {
                    field = line[...]
                    value = ""
                }
                switch field {
                case "event": type = String(value)
                case "data":
                    dataBytes += value.utf8.count + 1
                    guard dataBytes <= lines.splitter.limit else {
                        throw APIError.streamLineTooLong(limit: lines.splitter.limit)
                    }
                    data.append(String(value))
                    hasData = true
                case "id" where !value.contains("\0"): lastEventID = String(value)
                case "retry":
                    if !value.isEmpty, value.allSatisfy(\.isASCIIDigit), let milliseconds = Int(value) {
                        retry = .milliseconds(milliseconds)
                    }
                default: continue
                }
            }
            return nil
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

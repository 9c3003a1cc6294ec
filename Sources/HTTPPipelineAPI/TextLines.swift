import HTTPPipeline

/// A response body's lines, as they arrive: for newline-delimited JSON, logs and other line
/// protocols. Lines end at LF, CR LF or CR; the line ends are not part of the lines; a last line
/// without a line end is still a line. Bytes that are not UTF-8 become U+FFFD.
///
/// Made by ``APIClient/lines(_:maximumLineLength:)``. Reading it reads the body, once.
public struct TextLines: AsyncSequence, Sendable {
    public typealias Element = String

    let body: HTTPBody
    let maximumLineLength: Int

    /// Starts reading the body.
    public func makeAsyncIterator() -> Iterator {
        Iterator(body: body.makeAsyncIterator(), splitter: LineSplitter(limit: maximumLineLength))
    }

    /// Reads lines.
    public struct Iterator: AsyncIteratorProtocol {
        var body: HTTPBody.Iterator
        var splitter: LineSplitter
        var ready: [String] = []
        var nextReady = 0
        var ended = false

        /// The next line, or `nil` after the last.
        ///
        /// - Throws: ``APIError/streamLineTooLong(limit:)``, `CancellationError`, or
        ///   ``APIError/transport(underlying:)`` for a body that failed mid-way.
        public mutating func next() async throws -> String? {
            while nextReady == ready.count {
                guard !ended else { return nil }
                // Every line before the one that passed the limit was handed out first.
                if splitter.failed { throw APIError.streamLineTooLong(limit: splitter.limit) }
                ready.removeAll(keepingCapacity: true)
                nextReady = 0
                if let chunk = try await APIClient.transported({ try await body.next() }) {
                    ready = splitter.add(chunk)
                } else {
                    ended = true
                    if let last = splitter.finish() { ready = [last] }
                }
            }
            defer { nextReady += 1 }
            return ready[nextReady]
        }
    }
}

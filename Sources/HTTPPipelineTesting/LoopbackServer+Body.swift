public import Foundation

extension LoopbackServer.Response {
    /// A response body and how it goes on the wire: whole, in chunks, repeated, dripped, cut short
    /// or never-ending.
    ///
    /// Streamed bodies let a test check how a client copes with bytes that arrive over time:
    ///
    /// ```swift
    /// let server = LoopbackServer()
    /// let events = (1...5).map { Data("event \($0)\n".utf8) }
    /// // Five chunks, 20 ms apart, with Transfer-Encoding: chunked.
    /// server.route("GET", "/events", .init(body: .chunked(events, every: .milliseconds(20))))
    /// // A head promising 1000 bytes, then 10 of them, then the connection closes.
    /// server.route("GET", "/cut", .init(body: .abort(after: 10, of: .bytes(Data(count: 1000)))))
    /// // 1 KiB every 10 ms until the client goes away or the server stops.
    /// server.route("GET", "/live", .init(body: .endless(chunk: Data(count: 1024), every: .milliseconds(10))))
    /// // 1 GiB with a Content-Length, from one 64 KiB buffer.
    /// server.route("GET", "/big", .init(body: .repeated(Data(count: 64 << 10), count: 16_384)))
    /// ```
    ///
    /// Every pause ends early when the server stops, and a streaming connection ends as soon as
    /// its client goes away (checked before every chunk) or stops taking bytes for the idle
    /// timeout (``LoopbackServer/Timeouts/idle``). A `HEAD` request gets the head alone, and a
    /// status that never has a body (1xx, 204, 304) gets no body and no framing header.
    public indirect enum Body: Sendable {
        /// The bytes at once, framed by `Content-Length` (unless the headers already have one).
        case bytes(Data)

        /// The chunks with `Transfer-Encoding: chunked` (unless the headers already have a
        /// `Transfer-Encoding` field), one chunk on the wire per element, then the last, empty
        /// chunk; the connection can then serve the next request.
        ///
        /// The first chunk goes right after the head, each later one after a pause of `every`,
        /// and the last chunk right after the final one. Empty elements are skipped, since an
        /// empty chunk ends a chunked body.
        case chunked([Data], every: Duration = .zero)

        /// The chunk `count` times, one copy after another, framed by a `Content-Length` of
        /// `chunk.count × count` (unless the headers already have one); the connection can then
        /// serve the next request.
        ///
        /// A large body of known length that the server never holds more than one chunk of:
        /// `.repeated(Data(count: 64 << 10), count: 16_384)` is 1 GiB sent from a 64 KiB buffer.
        /// Each copy goes in one write, with no pause between copies; a `count` of `0` or less,
        /// or an empty `chunk`, is an empty body. For a large body without a length, use
        /// ``chunked(_:every:)`` with the same `Data` repeated: its elements share one buffer.
        case repeated(Data, count: Int)

        /// The chunk again and again with `Transfer-Encoding: chunked`, a pause of `every`
        /// before each one after the first, until the client goes away or the server stops; the
        /// body never ends, so the connection never serves another request.
        ///
        /// An empty `chunk` sends nothing after the head: the body stays open and silent, like a
        /// server that stalls mid-response.
        case endless(chunk: Data, every: Duration)

        /// `body`'s head and framing, then only its first `after` bytes, then the connection
        /// closes: a response cut short.
        ///
        /// With ``bytes(_:)`` or ``repeated(_:count:)`` the `Content-Length` promises every byte; with a chunked body the
        /// chunk holding the cut keeps its full size line and is cut inside, and a cut at a chunk
        /// boundary stops before the next size line. The last, empty chunk is never sent, even
        /// when `after` covers every byte; a `Content-Length` body of at most `after` bytes goes
        /// whole before the close.
        ///
        /// - Parameters:
        ///   - after: How many bytes of the body to send; `0` or less sends the head alone.
        ///   - body: The body that is cut short.
        case abort(after: Int, of: Body)
    }

    /// What ``content`` is and how it is sent, worked out once per response.
    struct Delivery {
        /// How the body is framed.
        enum Framing: Equatable {
            /// By a `Content-Length` of this many bytes.
            case length(Int)
            /// By `Transfer-Encoding: chunked`.
            case chunked
        }

        var framing: Framing
        /// The chunks in order; empty ones are never sent.
        var chunks: [Data]
        /// Whether the chunks start over once all were sent, without end.
        var repeats = false
        /// How many times the chunks are sent, one round after another, when they do not repeat
        /// without end.
        var rounds = 1
        /// The pause before each chunk after the first.
        var pause = Duration.zero
        /// How many bytes go out before the connection is closed; `nil` sends them all.
        var limit: Int?

        init(_ body: Body) {
            switch body {
            case .bytes(let data):
                self.init(framing: .length(data.count), chunks: [data])
            case .chunked(let chunks, let every):
                self.init(framing: .chunked, chunks: chunks, pause: every)
            case .repeated(let chunk, let count):
                let rounds = chunk.isEmpty ? 0 : max(count, 0)
                self.init(framing: .length(chunk.count * rounds), chunks: [chunk])
                self.rounds = rounds
            case .endless(let chunk, let every):
                self.init(framing: .chunked, chunks: [chunk], repeats: true, pause: every)
            case .abort(let after, let inner):
                self.init(inner)
                limit = max(0, min(after, limit ?? after))
            }
        }

        private init(framing: Framing, chunks: [Data], repeats: Bool = false, pause: Duration = .zero) {
            self.framing = framing
            self.chunks = chunks
            self.repeats = repeats
            self.pause = pause
        }

        /// Whether the body ends with the connection still usable for another request.
        var isComplete: Bool {
            limit == nil && !repeats
        }
    }
}

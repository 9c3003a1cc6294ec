public import Foundation
import HTTPPipeline

extension ScriptedTransport {
    /// One scripted answer: a response or a thrown error, optionally after a delay.
    public struct Reply: Sendable {
        enum Outcome: Sendable {
            case response(status: Int, headers: [String: String], body: Data)
            case streamed(status: Int, headers: [String: String], chunks: [Data], every: Duration, end: StreamEnd)
            case failure(any Error)
        }

        let outcome: Outcome
        /// How long the transport waits before answering.
        public var delay: Duration

        /// A response with a status, headers and body.
        ///
        /// - Parameters:
        ///   - status: The HTTP status code.
        ///   - headers: The response headers.
        ///   - body: The body bytes, handed over exactly as given.
        ///   - delay: How long to wait before answering.
        /// - Returns: The reply.
        public static func status(
            _ status: Int,
            headers: [String: String] = [:],
            body: Data = Data(),
            delay: Duration = .zero
        ) -> Reply {
            Reply(outcome: .response(status: status, headers: headers, body: body), delay: delay)
        }

        /// A 200 response whose body is `text` in UTF-8.
        ///
        /// - Parameters:
        ///   - text: The body.
        ///   - headers: The response headers.
        /// - Returns: The reply.
        public static func ok(_ text: String = "", headers: [String: String] = [:]) -> Reply {
            .status(200, headers: headers, body: Data(text.utf8))
        }

        /// How a streamed body ends after its last scripted chunk.
        public enum StreamEnd: Sendable {
            /// The body ends normally.
            case finish
            /// The read that comes after the last chunk throws `error`: a body cut short.
            case fail(any Error)
            /// The chunks start over, again and again: a body without end (a live feed).
            case repeatForever
            /// Nothing more comes and the body never ends: a stalled server. The read waits on
            /// the transport's clock until its task is cancelled.
            case stall
        }

        /// A response whose body streams: `chunks` one by one, the first at once and each later
        /// one after a pause of `every` on the transport's clock (a ``ManualClock`` makes it a
        /// drip a test controls), then `end`. The body is a single-pass stream whose length is the
        /// `Content-Length` header's, when `headers` has one.
        ///
        /// ```swift
        /// let clock = ManualClock()
        /// let transport = ScriptedTransport(
        ///     [.streamed(chunks: [Data("a".utf8), Data("b".utf8)], every: .seconds(1), then: .fail(URLError(.networkConnectionLost)))],
        ///     clock: clock)
        /// ```
        ///
        /// - Parameters:
        ///   - status: The status code; 200 by default.
        ///   - headers: The response headers.
        ///   - chunks: The chunks, in order; empty ones are skipped.
        ///   - every: The pause before each chunk after the first.
        ///   - end: What happens after the last chunk.
        /// - Returns: The reply.
        public static func streamed(
            _ status: Int = 200,
            headers: [String: String] = [:],
            chunks: [Data],
            every: Duration = .zero,
            then end: StreamEnd = .finish
        ) -> Reply {
            Reply(
                outcome: .streamed(
                    status: status, headers: headers, chunks: chunks.filter { !$0.isEmpty }, every: every, end: end),
                delay: .zero)
        }

        /// A thrown error instead of a response.
        ///
        /// - Parameters:
        ///   - error: What the transport throws.
        ///   - delay: How long to wait before throwing.
        /// - Returns: The reply.
        public static func failure(_ error: any Error, delay: Duration = .zero) -> Reply {
            Reply(outcome: .failure(error), delay: delay)
        }

        /// The same reply after a delay.
        ///
        /// - Parameter delay: How long to wait before answering.
        /// - Returns: The delayed reply.
        public func delayed(by delay: Duration) -> Reply {
            Reply(outcome: outcome, delay: delay)
        }

        func outcome(for request: HTTPRequest, clock: any Clock<Duration>) throws -> HTTPResponse {
            switch outcome {
            case .failure(let error):
                throw error
            case .streamed(let status, let headers, let chunks, let every, let end):
                guard (100...999).contains(status) else {
                    throw ScriptedTransportError.invalidResponse(status: status)
                }
                let fields = HTTPFields(
                    headers.sorted { $0.key < $1.key }.map { HTTPField(name: $0.key, value: $0.value) })
                let body = ScriptedChunks(chunks: chunks, every: every, end: end, clock: clock)
                // As on the wire: a length only when the head announces one.
                let length = fields["Content-Length"].flatMap { Int($0) }
                return HTTPResponse(
                    status: .init(code: status), fields: fields, body: HTTPBody(stream: body, length: length))
            case .response(let status, let headers, let body):
                guard (100...999).contains(status) else {
                    throw ScriptedTransportError.invalidResponse(status: status)
                }
                // A dictionary has no order: the fields go out sorted by name, the same every run.
                let fields = HTTPFields(
                    headers.sorted { $0.key < $1.key }.map { HTTPField(name: $0.key, value: $0.value) })
                return HTTPResponse(status: .init(code: status), fields: fields, body: HTTPBody(body))
            }
        }
    }

    /// A method and a path, for example `"GET /books/1"`; the query is not part of a route.
    public struct Route: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The HTTP method, upper-cased.
        public let method: String
        /// The URL path, starting with `/`.
        public let path: String

        /// Creates a route.
        ///
        /// - Parameters:
        ///   - method: The HTTP method; compared upper-cased.
        ///   - path: The URL path.
        public init(_ method: String, _ path: String) {
            self.method = method.uppercased()
            self.path = path.isEmpty ? "/" : path
        }

        /// Creates a route from `"METHOD /path"`; a literal without a space means `GET`.
        public init(stringLiteral value: String) {
            let parts = value.split(separator: " ", maxSplits: 1)
            if parts.count == 2 {
                self.init(String(parts[0]), String(parts[1]))
            } else {
                self.init("GET", value)
            }
        }

        init(_ request: HTTPRequest) {
            self.init(request.method.rawValue, request.url.path)
        }

        public var description: String { "\(method) \(path)" }
    }
}

/// A scripted streamed body: chunks with pauses on a clock, then an end.
struct ScriptedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]
    let every: Duration
    let end: ScriptedTransport.Reply.StreamEnd
    let clock: any Clock<Duration>

    func makeAsyncIterator() -> Iterator {
        Iterator(body: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        let body: ScriptedChunks
        var index = 0
        var sent = 0
        var ended = false

        mutating func next() async throws -> Data? {
            guard !ended else { return nil }
            if index == body.chunks.count {
                switch body.end {
                case .finish:
                    ended = true
                    return nil
                case .fail(let error):
                    ended = true
                    throw error
                case .stall:
                    while true { try await body.clock.sleep(for: .seconds(3_600)) }
                case .repeatForever:
                    guard !body.chunks.isEmpty else {
                        while true { try await body.clock.sleep(for: .seconds(3_600)) }
                    }
                    index = 0
                }
            }
            if sent > 0, body.every > .zero {
                try await body.clock.sleep(for: body.every)
            }
            try Task.checkCancellation()
            defer {
                index += 1
                sent += 1
            }
            return body.chunks[index]
        }
    }
}

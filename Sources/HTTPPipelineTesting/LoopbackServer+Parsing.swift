import Foundation

extension LoopbackServer {
    /// An incremental HTTP/1.1 request parser: feed it bytes as they arrive, take requests out.
    ///
    /// It is strict, so that a test client's mistakes surface as `400 Bad Request` rather than
    /// being guessed at: lines end in CRLF (a bare CR or LF is an error), field names are tokens
    /// with no space before the colon, obsolete line folding is refused, `Content-Length` must be
    /// digits and agree with itself, and it may not appear with `Transfer-Encoding`, whose only
    /// accepted value is `chunked`.
    struct RequestParser {
        /// The largest request head, request line to blank line, in bytes.
        static let maxHeadBytes = 16 * 1024
        /// The largest body, after chunked decoding, in bytes.
        static let maxBodyBytes = 8 * 1024 * 1024
        /// The most header fields in one request.
        static let maxHeaderCount = 100
        /// The longest chunk-size line, extensions included.
        static let maxChunkLineBytes = 4 * 1024

        /// Why a request was refused; the reason helps when debugging the server itself.
        struct Failure: Swift.Error, Equatable {
            var reason: String
        }

        /// A complete request and what it says about its connection.
        struct Parsed {
            var request: RecordedRequest
            var keepAlive: Bool
            var isHEAD: Bool { request.method == "HEAD" }
        }

        /// The parsed request head.
        struct Head {
            var method: String
            var target: String
            var headers: [(name: String, value: String)]
            var framing: Framing
            var keepAlive: Bool
            var expectsContinue: Bool
        }

        /// How the body's end is found.
        enum Framing: Equatable {
            case none
            case length(Int)
            case chunked
        }

        /// What the parser waits for next.
        private enum Phase: Equatable {
            case head
            case fixedBody(length: Int)
            case chunkSize
            case chunkData(remaining: Int)
            case chunkDataEnd
            case trailers(bytesSoFar: Int)
        }

        private var buffer: [UInt8] = []
        /// The first byte not yet consumed.
        private var start = 0
        private var phase = Phase.head
        /// Where the search for the end of the head resumes.
        private var headScanIndex = 0
        /// Whether the head seen so far holds more than empty lines.
        private var headHasContent = false
        private var head: Head?
        private var body: [UInt8] = []
        /// Set when a head asking for `100 Continue` has been parsed; cleared when taken.
        private var continueRequested = false

        /// Whether nothing of a next request has arrived yet.
        var isBetweenRequests: Bool {
            phase == .head && start == buffer.count
        }

        /// Adds bytes received from the connection.
        mutating func append(_ bytes: ArraySlice<UInt8>) {
            buffer.append(contentsOf: bytes)
        }

        /// Returns whether the client waits for `100 Continue`, and forgets that it does.
        mutating func takeContinueRequest() -> Bool {
            defer { continueRequested = false }
            return continueRequested
        }

        /// Takes the next complete request out of the bytes received so far.
        ///
        /// - Returns: The request, or `nil` when more bytes are needed.
        /// - Throws: ``Failure`` when the bytes are not a valid request or exceed a limit.
        mutating func next() throws(Failure) -> Parsed? {
            while true {
                switch phase {
                case .head:
                    guard let end = try scanHead() else { return compacting(nil) }
                    let parsed = try Self.parseHead(buffer[start..<end])
                    start = end
                    head = parsed
                    switch parsed.framing {
                    case .none: return finish()
                    case .length(let length): phase = .fixedBody(length: length)
                    case .chunked: phase = .chunkSize
                    }
                    continueRequested = parsed.expectsContinue
                case .fixedBody(let length):
                    guard buffer.count - start >= length else { return nil }
                    body = Array(buffer[start..<start + length])
                    start += length
                    return finish()
                case .chunkSize:
                    guard let lineEnd = try scanLine(limit: Self.maxChunkLineBytes) else {
                        return compacting(nil)
                    }
                    let size = try Self.parseChunkSize(buffer[start..<lineEnd - 2])
                    start = lineEnd
                    guard size <= Self.maxBodyBytes - body.count else {
                        throw Failure(reason: "chunked body exceeds \(Self.maxBodyBytes) bytes")
                    }
                    phase = size == 0 ? .trailers(bytesSoFar: 0) : .chunkData(remaining: size)
                case .chunkData(let remaining):
                    let available = min(buffer.count - start, remaining)
                    guard available > 0 else { return compacting(nil) }
                    body.append(contentsOf: buffer[start..<start + available])
                    start += available
                    phase = available == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - available)
                case .chunkDataEnd:
                    guard buffer.count - start >= 2 else { return compacting(nil) }
                    guard buffer[start] == .cr && buffer[start + 1] == .lf else {
                        throw Failure(reason: "chunk data not followed by CRLF")
                    }
                    start += 2
                    phase = .chunkSize
                case .trailers(let bytesSoFar):
                    guard let lineEnd = try scanLine(limit: Self.maxHeadBytes - bytesSoFar) else {
                        return compacting(nil)
                    }
                    let isBlank = lineEnd - start == 2
                    phase = .trailers(bytesSoFar: bytesSoFar + lineEnd - start)
                    start = lineEnd
                    if isBlank { return finish() }
                }
            }
        }

        // MARK: Scanning

        /// Finds the end of the head (the index after its blank line), or returns `nil` for more.
        private mutating func scanHead() throws(Failure) -> Int? {
            var index = max(headScanIndex, start)
            defer { headScanIndex = index }
            while index < buffer.count {
                let byte = buffer[index]
                let previous = index > start ? buffer[index - 1] : nil
                if byte == .lf {
                    guard previous == .cr else { throw Failure(reason: "bare LF in request head") }
                    if headHasContent && index - start >= 3 && buffer[index - 2] == .lf {
                        index += 1
                        return index
                    }
                } else if previous == .cr {
                    throw Failure(reason: "bare CR in request head")
                } else if byte != .cr {
                    headHasContent = true
                }
                index += 1
                guard index - start <= Self.maxHeadBytes else {
                    throw Failure(reason: "request head exceeds \(Self.maxHeadBytes) bytes")
                }
            }
            return nil
        }

        /// Finds the end of the line at `start` (the index after its CRLF), or returns `nil`.
        private func scanLine(limit: Int) throws(Failure) -> Int? {
            var index = start
            while index < buffer.count {
                if buffer[index] == .lf {
                    guard index > start && buffer[index - 1] == .cr else {
                        throw Failure(reason: "bare LF in chunked body")
                    }
                    return index + 1
                }
                if index > start && buffer[index - 1] == .cr {
                    throw Failure(reason: "bare CR in chunked body")
                }
                index += 1
                guard index - start <= limit else { throw Failure(reason: "chunk line too long") }
            }
            return nil
        }

        /// Resets for the next request, dropping consumed bytes, and returns the finished one.
        private mutating func finish() -> Parsed? {
            guard let head else { return nil }
            let request = RecordedRequest(
                method: head.method,
                target: head.target,
                headers: head.headers,
                body: Data(body)
            )
            self.head = nil
            body = []
            phase = .head
            headHasContent = false
            continueRequested = false
            buffer.removeSubrange(0..<start)
            start = 0
            headScanIndex = 0
            return Parsed(request: request, keepAlive: head.keepAlive)
        }

        /// Drops consumed bytes when they have piled up (a long chunked body), then returns `value`.
        private mutating func compacting(_ value: Parsed?) -> Parsed? {
            if start >= 64 * 1024 {
                buffer.removeSubrange(0..<start)
                headScanIndex = max(0, headScanIndex - start)
                start = 0
            }
            return value
        }
    }
}

extension UInt8 {
    fileprivate static let cr = UInt8(ascii: "\r")
    fileprivate static let lf = UInt8(ascii: "\n")
}

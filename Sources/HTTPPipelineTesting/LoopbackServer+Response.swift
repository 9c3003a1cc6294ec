public import Foundation
import HTTPPipeline

extension LoopbackServer {
    /// What the server sends back for a request: an HTTP response, or raw bytes.
    ///
    /// The server adds `Content-Length`, or `Transfer-Encoding: chunked` for a streamed
    /// ``Body`` (unless ``headers`` already has a `Content-Length` or `Transfer-Encoding` field,
    /// or the status never has a body: 1xx, 204, 304) and `Connection: keep-alive` or
    /// `Connection: close` (unless ``headers`` already has a `Connection` field; a `close` there
    /// closes the connection after the response). A `HEAD` request gets the same head without
    /// the body.
    public struct Response: Sendable {
        /// The status code, e.g. `200`, sent with its standard reason phrase.
        public var status: Int
        /// The header fields, sent in this order; a name may appear more than once (e.g. two
        /// `Set-Cookie` fields).
        public var headers: [(name: String, value: String)]
        /// The body bytes of a ``Body/bytes(_:)`` ``content``, empty for a streamed one; for a
        /// response made with ``raw(_:delay:)``, the bytes sent verbatim. Setting it makes
        /// ``content`` those bytes.
        public var body: Data {
            get {
                if case .bytes(let data) = content { data } else { Data() }
            }
            set { content = .bytes(newValue) }
        }
        /// The body and how it is sent: whole, chunked, dripped, cut short or never-ending.
        public var content: Body
        /// How long to wait before answering. The wait ends early, without an answer, when the
        /// server stops or the client goes away: a client that closes its connection (or only
        /// its sending side) during the delay is taken as gone, within 50 ms.
        public var delay: Duration
        /// Whether ``body`` is sent verbatim instead of an HTTP response.
        var isRaw = false

        /// Creates an HTTP response.
        ///
        /// - Parameters:
        ///   - status: The status code; `200` by default.
        ///   - headers: The header fields, in order; duplicates are sent as they are.
        ///   - body: The body bytes; empty by default.
        ///   - delay: How long to wait before answering; none by default.
        public init(
            status: Int = 200,
            headers: [(name: String, value: String)] = [],
            body: Data = Data(),
            delay: Duration = .zero
        ) {
            self.init(status: status, headers: headers, body: .bytes(body), delay: delay)
        }

        /// Creates an HTTP response whose body may stream.
        ///
        /// - Parameters:
        ///   - status: The status code; `200` by default.
        ///   - headers: The header fields, in order; duplicates are sent as they are.
        ///   - body: The body and how it is sent, e.g. `.chunked(chunks, every: .milliseconds(20))`.
        ///   - delay: How long to wait before answering; none by default.
        public init(
            status: Int = 200,
            headers: [(name: String, value: String)] = [],
            body: Body,
            delay: Duration = .zero
        ) {
            self.status = status
            self.headers = headers
            self.content = body
            self.delay = delay
        }

        /// Bytes written verbatim instead of an HTTP response, then the connection is closed: for
        /// non-HTTP replies and truncated responses (e.g. a head promising Content-Length 1000
        /// followed by 10 bytes).
        ///
        /// ``status`` and ``headers`` of the result are ignored; ``body`` holds the bytes.
        ///
        /// - Parameters:
        ///   - bytes: The exact bytes to write on the connection.
        ///   - delay: How long to wait before writing them; none by default.
        /// - Returns: A response that writes `bytes` and closes the connection.
        public static func raw(_ bytes: Data, delay: Duration = .zero) -> Response {
            var response = Response(body: bytes, delay: delay)
            response.isRaw = true
            return response
        }
    }
}

extension LoopbackServer.Response {
    /// The answer to a request that cannot be parsed; the connection closes after it.
    static let badRequestBytes = Array(
        "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8
    )

    /// The answer to a request that did not arrive in time; the connection closes after it.
    static let requestTimeoutBytes = Array(
        "HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8
    )

    /// The interim answer to `Expect: 100-continue`.
    static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The answer for a method and path with no route.
    static let notFound = Self(status: 404)

    /// Whether ``headers`` ask for the connection to be closed after this response.
    var closesConnection: Bool {
        headers.contains { field in
            field.name.lowercased() == "connection"
                && field.value.split(separator: ",").contains {
                    $0.trimmingCharacters(in: .whitespaces).lowercased() == "close"
                }
        }
    }

    /// Whether the status can carry a body at all: 1xx, 204 and 304 never do.
    var statusHasBody: Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }

    /// The status line, header fields and blank line, with the framing and `Connection` fields
    /// the server adds.
    ///
    /// - Parameters:
    ///   - framing: How the body that follows is framed.
    ///   - keepAlive: Whether the connection stays open after this response.
    func serializedHead(framing: Delivery.Framing, keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(for: status))\r\n"
        for field in headers {
            head += "\(field.name): \(field.value)\r\n"
        }
        let names = Set(headers.map { $0.name.lowercased() })
        if statusHasBody && !names.contains("content-length") && !names.contains("transfer-encoding") {
            switch framing {
            case .length(let count): head += "Content-Length: \(count)\r\n"
            case .chunked: head += "Transfer-Encoding: chunked\r\n"
            }
        }
        if !names.contains("connection") {
            head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// The standard reason phrase for a status code (the core's), or a generic one for its class.
    static func reasonPhrase(for status: Int) -> String {
        let standard = HTTPResponse.Status(code: status).reasonPhrase
        guard standard.isEmpty else { return standard }
        switch status {
        case 100..<200: return "Informational"
        case 200..<300: return "Success"
        case 300..<400: return "Redirection"
        case 400..<500: return "Client Error"
        case 500..<600: return "Server Error"
        default: return "Unknown"
        }
    }
}

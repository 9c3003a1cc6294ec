extension HAR {
    /// A response as the archive records it.
    package struct Response: Codable, Sendable, Equatable {
        /// The status code.
        package var status: Int
        /// The reason phrase, for example `OK`.
        package var statusText: String
        /// The protocol, for example `HTTP/1.1`.
        package var httpVersion: String
        /// The cookies set.
        package var cookies: [Cookie]
        /// The header fields, in order.
        package var headers: [NameValue]
        /// The body.
        package var content: Content
        /// The `Location` of a redirect, or `""`.
        package var redirectURL: String
        /// The bytes of the head; `-1` when not known.
        package var headersSize: Int
        /// The bytes of the body as received; `-1` when not known.
        package var bodySize: Int
        /// A comment.
        package var comment: String?
        /// Why no response, or no whole body, came: the error's description, redacted (`_error`,
        /// as browsers write a failed request: status 0). `nil` for a whole exchange.
        package var error: String?
        /// The error's kind, as a replay rebuilds it (`_errorKind`): `cancelled` (the caller gave
        /// up first), `abandoned` (the body was dropped unread), `URLError` (with ``errorCode``),
        /// or another error's type name.
        package var errorKind: String?
        /// A `URLError`'s code (`_errorCode`).
        package var errorCode: Int?

        enum CodingKeys: String, CodingKey {
            case status, statusText, httpVersion, cookies, headers, content, redirectURL, headersSize, bodySize
            case comment
            case error = "_error"
            case errorKind = "_errorKind"
            case errorCode = "_errorCode"
        }

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - status: The status code.
        ///   - headers: The header fields.
        ///   - content: The body.
        ///   - redirectURL: The `Location` of a redirect, or `""`.
        package init(status: Int, headers: [NameValue], content: Content, redirectURL: String = "") {
            self.status = status
            self.statusText = HAR.reasonPhrase(status)
            self.httpVersion = "HTTP/1.1"
            self.cookies = []
            self.headers = headers
            self.content = content
            self.redirectURL = redirectURL
            self.headersSize = -1
            self.bodySize = content.size
        }
    }

    /// A response body.
    package struct Content: Codable, Sendable, Equatable {
        /// Its length in bytes, decoded.
        package var size: Int
        /// Bytes saved by compression.
        package var compression: Int?
        /// Its media type (the `Content-Type` value).
        package var mimeType: String
        /// The body as text, or base64 when ``encoding`` is `"base64"`.
        package var text: String?
        /// `"base64"` for a binary body.
        package var encoding: String?
        /// A comment.
        package var comment: String?
        /// The sizes of the chunks a streamed body arrived in (`_chunks`), so a replay streams it
        /// the same way; `nil` for a buffered body.
        package var chunks: [Int]?
        /// `true` when ``text`` is only a summary of a body the cassette did not keep
        /// (`_notRecorded`): one it could not read for secrets, or one past its limit. A replay
        /// serves the summary with the head as recorded, its `Content-Encoding` included.
        package var notRecorded: Bool?

        enum CodingKeys: String, CodingKey {
            case size, compression, mimeType, text, encoding, comment
            case chunks = "_chunks"
            case notRecorded = "_notRecorded"
        }

        /// Creates a body record.
        ///
        /// - Parameters:
        ///   - size: The length in bytes.
        ///   - mimeType: The media type.
        ///   - text: The body as text, or base64.
        ///   - encoding: `"base64"` when `text` is base64.
        package init(size: Int, mimeType: String, text: String?, encoding: String? = nil) {
            self.size = size
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
        }
    }

    /// The reason phrase of common status codes, `""` for others.
    static func reasonPhrase(_ status: Int) -> String {
        phrases[status] ?? ""
    }

    /// Reason phrases by status code.
    static let phrases = [
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently", 302: "Found",
        303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
        429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]
}

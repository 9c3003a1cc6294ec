extension HAR {
    /// A request as the archive records it.
    package struct Request: Codable, Sendable, Equatable {
        /// The method, for example `GET`.
        package var method: String
        /// The absolute URL (a cassette keeps a fragment, redacted, as the request had it).
        package var url: String
        /// The protocol, for example `HTTP/1.1`.
        package var httpVersion: String
        /// The cookies sent.
        package var cookies: [Cookie]
        /// The header fields, in order.
        package var headers: [NameValue]
        /// The query items, in order.
        package var queryString: [NameValue]
        /// The body, when there is one.
        package var postData: PostData?
        /// The bytes of the head; `-1` when not known.
        package var headersSize: Int
        /// The bytes of the body; `-1` when not known.
        package var bodySize: Int
        /// A comment.
        package var comment: String?

        /// Creates a request.
        ///
        /// - Parameters:
        ///   - method: The method.
        ///   - url: The absolute URL.
        ///   - headers: The header fields.
        ///   - queryString: The query items.
        ///   - postData: The body, if any.
        ///   - bodySize: The bytes of the body.
        package init(
            method: String,
            url: String,
            headers: [NameValue],
            queryString: [NameValue],
            postData: PostData?,
            bodySize: Int
        ) {
            self.method = method
            self.url = url
            self.httpVersion = "HTTP/1.1"
            self.cookies = []
            self.headers = headers
            self.queryString = queryString
            self.postData = postData
            self.headersSize = -1
            self.bodySize = bodySize
        }
    }

    /// A request body.
    package struct PostData: Codable, Sendable, Equatable {
        /// Its media type (the `Content-Type` value).
        package var mimeType: String
        /// Form parameters; a cassette writes ``text`` instead.
        package var params: [Param]?
        /// The body as text; base64 when ``encoding`` says so (an extension HAR viewers share with
        /// ``Content/encoding``).
        package var text: String?
        /// `"base64"` for a binary body.
        package var encoding: String?
        /// A comment.
        package var comment: String?

        /// Creates a body record.
        ///
        /// - Parameters:
        ///   - mimeType: The media type.
        ///   - text: The body as text, or base64.
        ///   - encoding: `"base64"` when `text` is base64.
        package init(mimeType: String, text: String, encoding: String? = nil) {
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
        }
    }

    /// One posted form parameter.
    package struct Param: Codable, Sendable, Equatable {
        /// Its name.
        package var name: String
        /// Its value.
        package var value: String?
        /// The file name of an uploaded file.
        package var fileName: String?
        /// The media type of an uploaded file.
        package var contentType: String?
        /// A comment.
        package var comment: String?
    }
}

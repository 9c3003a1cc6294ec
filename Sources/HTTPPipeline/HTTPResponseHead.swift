/// What a response says before its body: the status and the header fields.
///
/// A value type: a layer changes a response head (as a decoding layer removes
/// `Content-Encoding`) by changing its fields, in place.
public struct HTTPResponseHead: Sendable, Hashable {
    /// The status, for example `200 OK`.
    public var status: HTTPResponse.Status
    /// The header fields, in order.
    public var fields: HTTPFields
    /// Whether the transport already decoded the content codings `Content-Encoding` lists.
    ///
    /// When `true`, the body is the decoded representation while the fields still say what the
    /// server sent (`Content-Encoding`, and a `Content-Length` that counts the encoded bytes).
    /// `URLSessionTransport` sets it, because the URL loading system decodes gzip, deflate and
    /// brotli itself and cannot be told not to; a transport that hands over the bytes as they
    /// came off the wire leaves it `false`. The gzip plugin reads it: it applies its limits to
    /// such a body and removes the fields, and never decodes it again.
    public var decodedByTransport: Bool

    /// Creates a response head.
    ///
    /// - Parameters:
    ///   - status: The status; an integer literal is one.
    ///   - fields: The header fields; none by default.
    ///   - decodedByTransport: Whether the transport already decoded the body's content
    ///     codings; `false` by default.
    @inlinable
    public init(status: HTTPResponse.Status, fields: HTTPFields = HTTPFields(), decodedByTransport: Bool = false) {
        self.status = status
        self.fields = fields
        self.decodedByTransport = decodedByTransport
    }
}

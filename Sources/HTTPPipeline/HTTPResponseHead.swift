/// What a response says before its body: the status and the header fields.
///
/// A light value type of the core: removing a field (as a decoding layer removes
/// `Content-Encoding`) is an array write, where rebuilding an `HTTPURLResponse` costs about
/// 78,000 instructions on Linux (Documentation/CoreV2.md).
public struct HTTPResponseHead: Sendable, Hashable {
    /// The status, for example `200 OK`.
    public var status: HTTPResponse.Status
    /// The header fields, in order.
    public var fields: HTTPFields

    /// Creates a response head.
    ///
    /// - Parameters:
    ///   - status: The status; an integer literal is one.
    ///   - fields: The header fields; none by default.
    @inlinable
    public init(status: HTTPResponse.Status, fields: HTTPFields = HTTPFields()) {
        self.status = status
        self.fields = fields
    }
}

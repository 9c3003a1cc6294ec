/// One response as it moves back up a pipeline: its head and its body.
///
/// The body is buffered (``HTTPBody/bufferedData``) or a stream that a layer may read, wrap or
/// pass on; a layer that needs the bytes collects them with a limit
/// (``HTTPBody/collect(upTo:)``).
///
/// ```swift
/// let response = try await pipeline.send(request)
/// guard response.status == 200 else { throw URLError(.badServerResponse) }
/// let data = try await response.body.collect(upTo: 1 << 20)   // at most 1 MiB
/// ```
public struct HTTPResponse: Sendable {
    /// The status and the header fields.
    public var head: HTTPResponseHead
    /// The body; empty when the response has none.
    public var body: HTTPBody
    /// What the layers below and the transport tell about the response; empty unless one of
    /// them says something.
    public var context = HTTPResponseContext()

    /// Creates a response from its head.
    ///
    /// - Parameters:
    ///   - head: The status and header fields.
    ///   - body: The body; empty by default.
    @inlinable
    public init(head: HTTPResponseHead, body: HTTPBody = .empty) {
        self.head = head
        self.body = body
    }

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status; an integer literal is one.
    ///   - fields: The header fields; none by default.
    ///   - body: The body; empty by default.
    @inlinable
    public init(status: Status, fields: HTTPFields = HTTPFields(), body: HTTPBody = .empty) {
        self.init(head: HTTPResponseHead(status: status, fields: fields), body: body)
    }

    /// The status, for example `200 OK`; compare it with an integer literal or a static
    /// (`.notFound`), read its ``Status/code`` or ``Status/kind``.
    @inlinable
    public var status: Status {
        get { head.status }
        set { head.status = newValue }
    }

    /// The header fields, in order.
    @inlinable
    public var fields: HTTPFields {
        get { head.fields }
        set { head.fields = newValue }
    }
}

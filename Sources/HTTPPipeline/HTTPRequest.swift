public import Foundation

/// One request as it moves through a pipeline: its head, its body and its per-request context.
///
/// A value type: a layer that changes the request changes its own copy and hands that to `next`.
/// The head is a light value of the core (``HTTPRequestHead``), converted to what a client library
/// wants once, by the transport at the bottom.
///
/// ```swift
/// var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/books")!)
/// request.fields["Content-Type"] = "application/json"
/// request.body = HTTPBody(Data(#"{"title":"Dune"}"#.utf8))
/// ```
///
/// The body is `nil` when the request has none (a `GET`); a body that is a single-pass stream
/// makes the request not replayable (``isReplayable``): retry, auth and redirects return what the
/// first attempt got rather than send it again.
public struct HTTPRequest: Sendable {
    /// The method, the URL and the header fields.
    public var head: HTTPRequestHead
    /// The body, or `nil` when the request has none.
    public var body: HTTPBody?
    /// Typed values for the layers below: per-call settings and what one layer tells another.
    public var context: HTTPRequestContext

    /// Creates a request from its head.
    ///
    /// - Parameters:
    ///   - head: The method, URL and header fields.
    ///   - body: The body; none by default.
    ///   - context: The per-request context; empty by default.
    @inlinable
    public init(head: HTTPRequestHead, body: HTTPBody? = nil, context: HTTPRequestContext = HTTPRequestContext()) {
        self.head = head
        self.body = body
        self.context = context
    }

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The method; `GET` by default.
    ///   - url: The absolute URL.
    ///   - fields: The header fields; none by default.
    ///   - body: The body; none by default.
    ///   - context: The per-request context; empty by default.
    @inlinable
    public init(
        method: HTTPMethod = .get,
        url: URL,
        fields: HTTPFields = HTTPFields(),
        body: HTTPBody? = nil,
        context: HTTPRequestContext = HTTPRequestContext()
    ) {
        self.init(head: HTTPRequestHead(method: method, url: url, fields: fields), body: body, context: context)
    }

    /// The method.
    @inlinable
    public var method: HTTPMethod {
        get { head.method }
        set { head.method = newValue }
    }

    /// The absolute URL.
    @inlinable
    public var url: URL {
        get { head.url }
        set { head.url = newValue }
    }

    /// The header fields, in order.
    @inlinable
    public var fields: HTTPFields {
        get { head.fields }
        set { head.fields = newValue }
    }

    /// Whether the request can be sent more than once: it has no body, or a body that can be read
    /// again (``HTTPBody/isReplayable``).
    ///
    /// The one rule every layer that sends a request again (retry, auth, redirects, hedging) uses:
    /// a single-pass stream is sent at most once, so a second attempt never goes out empty.
    @inlinable
    public var isReplayable: Bool {
        body?.isReplayable ?? true
    }

    /// Whether a transport may send the request again on its own, below the pipeline, when a
    /// connection dies under it before any response byte arrives (a kept-alive connection the
    /// server closed meanwhile): its method is idempotent (``HTTPMethod/isIdempotent``) or it
    /// carries an `Idempotency-Key` field, and its body can be read again (``isReplayable``).
    ///
    /// Every transport keeps it (the conformance suite checks it): a request that may not be
    /// resent reaches the server at most once, and the caller gets
    /// ``HTTPTransportError/outcomeUnknown`` when its connection dies after it was sent. Send an
    /// `Idempotency-Key` the server honours to opt in.
    public var mayBeResentByTransport: Bool {
        guard isReplayable else { return false }
        return method.isIdempotent || fields["Idempotency-Key"]?.isEmpty == false
    }
}

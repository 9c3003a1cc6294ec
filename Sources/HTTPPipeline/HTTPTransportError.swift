/// A failure of a transport that is not a `URLError`: the request could not be sent, or the
/// reply was not HTTP.
///
/// A struct with a private code, so that a kind of failure added later breaks no `switch`:
/// compare with `==` (`error == .nonHTTPResponse`) or ask ``isInvalidRequest``.
///
/// ```swift
/// let error = HTTPTransportError.invalidRequest(reason: "the URL has no host")
/// print(error.isInvalidRequest, error.reason ?? "", error)
/// ```
///
/// Its descriptions never include a URL, a header or a body, so it is safe to log.
public struct HTTPTransportError: Error, Hashable, Sendable, CustomStringConvertible, HTTPTransientFailure {
    private enum Code: Hashable, Sendable {
        case invalidRequest
        case nonHTTPResponse
        case contentDecodingFailed
        case outcomeUnknown
    }

    private let code: Code
    /// What is wrong with the request, for an invalid request, or with the body, for a body the
    /// transport could not decode; `nil` otherwise.
    public let reason: String?

    private init(_ code: Code, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }

    /// The request cannot be sent as it is; `reason` says what is wrong with it.
    ///
    /// - Parameter reason: What is wrong, in words that hold no secret.
    /// - Returns: The error.
    public static func invalidRequest(reason: String) -> HTTPTransportError {
        HTTPTransportError(.invalidRequest, reason: reason)
    }

    /// The URL loading system answered with something other than an HTTP response.
    public static let nonHTTPResponse = HTTPTransportError(.nonHTTPResponse)

    /// A transport that decodes content codings itself (``HTTPResponseHead/decodedByTransport``)
    /// found a body that is not what its `Content-Encoding` says: corrupt, or in a coding it does
    /// not know. The gzip plugin reports it as its own decoding error, so a verdict on a body is
    /// the same whichever side decoded it.
    ///
    /// - Parameter reason: What the decoder said, in words that hold no byte of the body.
    /// - Returns: The error.
    public static func contentDecodingFailed(reason: String) -> HTTPTransportError {
        HTTPTransportError(.contentDecodingFailed, reason: reason)
    }

    /// The connection ended after the request was sent and before a byte of the response came
    /// back, and the request may not be sent again (``HTTPRequest/mayBeResentByTransport`` is
    /// `false`: a non-idempotent method without an `Idempotency-Key`, or a single-pass body): the
    /// server may or may not have processed it. The transport did not send it again.
    ///
    /// A connection kept alive from an earlier request and closed by the server meanwhile ends
    /// this way; so does a server that crashed on the request. Find out what happened (look the
    /// order up) before sending it again, or send it with an `Idempotency-Key` the server
    /// honours.
    public static let outcomeUnknown = HTTPTransportError(.outcomeUnknown)

    /// Whether the request could not be sent as it is, whatever the reason.
    public var isInvalidRequest: Bool { code == .invalidRequest }

    /// Whether the transport could not decode the body's content coding.
    public var isContentDecodingFailed: Bool { code == .contentDecodingFailed }

    /// Whether the server may have processed a request the transport did not send again
    /// (``outcomeUnknown``).
    public var isOutcomeUnknown: Bool { code == .outcomeUnknown }

    /// Whether another attempt may succeed: only for ``outcomeUnknown`` (a connection that died
    /// under the request). Retry sends such a request again only when its policy counts the
    /// method as idempotent, which by default it does not.
    public var isTransient: Bool { code == .outcomeUnknown }

    public var description: String {
        switch code {
        case .invalidRequest: "invalid request: \(reason ?? "")"
        case .nonHTTPResponse: "the server's reply was not an HTTP response"
        case .contentDecodingFailed: "the body could not be decoded as its Content-Encoding says: \(reason ?? "")"
        case .outcomeUnknown:
            "the connection closed after the request was sent and before its response; the server may have processed it, and it was not sent again"
        }
    }
}

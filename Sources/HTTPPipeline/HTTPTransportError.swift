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
public struct HTTPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case invalidRequest
        case nonHTTPResponse
        case contentDecodingFailed
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

    /// Whether the request could not be sent as it is, whatever the reason.
    public var isInvalidRequest: Bool { code == .invalidRequest }

    /// Whether the transport could not decode the body's content coding.
    public var isContentDecodingFailed: Bool { code == .contentDecodingFailed }

    public var description: String {
        switch code {
        case .invalidRequest: "invalid request: \(reason ?? "")"
        case .nonHTTPResponse: "the server's reply was not an HTTP response"
        case .contentDecodingFailed: "the body could not be decoded as its Content-Encoding says: \(reason ?? "")"
        }
    }
}

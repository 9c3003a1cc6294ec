/// A failure of a transport that is not a `URLError`: the request could not be sent, or the
/// reply was not HTTP.
///
/// Its descriptions never include a URL, a header or a body, so it is safe to log.
public enum HTTPTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request cannot be sent as it is; `reason` says what is wrong with it.
    case invalidRequest(reason: String)
    /// The URL loading system answered with something other than an HTTP response.
    case nonHTTPResponse

    public var description: String {
        switch self {
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .nonHTTPResponse: "the server's reply was not an HTTP response"
        }
    }
}

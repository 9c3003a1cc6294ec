#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// The production transport: sends requests with a `URLSession`.
///
/// - Cancelling the calling task cancels the underlying request at once and throws
///   `CancellationError`.
/// - A request whose URL is not absolute `http`/`https` with a host fails with
///   ``HTTPTransportError/invalidRequest(reason:)`` before anything is sent. The scheme is
///   compared ignoring case, as RFC 3986 says, and sent in lower case: `HTTP://host/` is sent as
///   `http://host/` (`URLSession` on Linux would reject it as an unsupported URL).
/// - A reply that is not an `HTTPURLResponse` fails with ``HTTPTransportError/nonHTTPResponse``.
/// - Network failures surface as the `URLError` the session reported (timed out, connection
///   lost, cannot connect, …), unchanged, so retry policies can inspect their codes.
/// - HTTP error statuses are returned, not thrown.
///
/// `URLSession` already inflates `gzip`, `deflate` and `br` bodies and keeps the `Content-Encoding`
/// header; decoding plugins above this transport must expect already-decoded bodies.
///
/// Beyond about four concurrent requests to one host, a session with default settings opens new
/// connections instead of reusing them; pass a session whose configuration sets
/// `httpMaximumConnectionsPerHost` where concurrency matters.
public struct URLSessionTransport: HTTPTransport {
    /// The session that sends every request.
    public let session: URLSession

    /// Creates a transport over a session.
    ///
    /// - Parameter session: The session to send with; `URLSession.shared` by default.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends a request with the session.
    ///
    /// The head is converted to a `URLRequest` once (one `allHTTPHeaderFields` assignment), and
    /// the `HTTPURLResponse` to an ``HTTPResponseHead`` once.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response.
    /// - Throws: ``HTTPTransportError`` for a request that cannot be sent or a non-HTTP reply,
    ///   `CancellationError` when the calling task is cancelled, `URLError` for network failures.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = try Self.validated(URLRequest(request.head))
        if let body = request.body {
            urlRequest.httpBody = try await body.collect(upTo: Int.max)
        }
        try Task.checkCancellation()
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
            throw CancellationError()
        }
        guard let http = response as? HTTPURLResponse else {
            throw HTTPTransportError.nonHTTPResponse
        }
        return HTTPResponse(head: HTTPResponseHead(http), body: HTTPBody(data))
    }

    /// The request as the session is to get it: checked, with its URL's scheme in lower case.
    ///
    /// - Throws: ``HTTPTransportError/invalidRequest(reason:)`` when it cannot be sent.
    static func validated(_ request: URLRequest) throws -> URLRequest {
        guard let url = request.url else {
            throw HTTPTransportError.invalidRequest(reason: "the request has no URL")
        }
        guard let scheme = url.scheme, case let lowered = scheme.lowercased(), lowered == "http" || lowered == "https"
        else {
            throw HTTPTransportError.invalidRequest(reason: "the URL's scheme is not http or https")
        }
        guard let host = url.host, !host.isEmpty else {
            throw HTTPTransportError.invalidRequest(reason: "the URL has no host")
        }
        guard scheme != lowered else { return request }
        // Only the scheme changes: the rest of the URL keeps its exact text (its encoding included).
        let text = url.absoluteString
        guard text.hasPrefix(scheme + ":"), let normalized = URL(string: lowered + text.dropFirst(scheme.count)) else {
            throw HTTPTransportError.invalidRequest(reason: "the URL's scheme could not be put in lower case")
        }
        var sent = request
        sent.url = normalized
        return sent
    }
}

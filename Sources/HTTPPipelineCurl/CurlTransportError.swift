public import HTTPPipeline

/// A transfer ``CurlTransport`` could not complete: libcurl's result code, its readable message,
/// and what kind of failure it is.
///
/// Retry's default policy retries the transient categories (``Category/timeout``,
/// ``Category/connectionRefused``, ``Category/dnsFailure``, ``Category/connectionLost``), as it
/// retries the matching `URLError` codes of `URLSessionTransport`; a TLS failure is never retried.
///
/// ```swift
/// do {
///     _ = try await CurlTransport().send(HTTPRequest(url: URL(string: "https://self-signed.example")!))
/// } catch let error as CurlTransportError where error.category == .tls {
///     print(error)   // "TLS failure (curl 60): SSL peer certificate or SSH remote key was not OK: …"
/// }
/// ```
///
/// Its description holds libcurl's messages, which may name the host, never a header or a body.
public struct CurlTransportError: Error, Sendable, Equatable, CustomStringConvertible, HTTPTransientFailure {
    /// What kind of failure a libcurl result code is.
    public enum Category: Sendable, Equatable {
        /// The connect timeout or the total timeout (the configuration's, or the request's
        /// deadline) passed.
        case timeout
        /// Nothing accepted the connection.
        case connectionRefused
        /// The host (or the proxy's) name could not be resolved.
        case dnsFailure
        /// The connection broke or the server closed it before the response was complete (a
        /// body cut short included).
        case connectionLost
        /// The TLS handshake failed or the server's certificate was refused.
        case tls
        /// Any other failure.
        case other
    }

    /// libcurl's `CURLcode`, for example `28` for `CURLE_OPERATION_TIMEDOUT`.
    public let code: Int
    /// `curl_easy_strerror` of the code, then libcurl's detail for this transfer when it had one.
    public let message: String
    /// What kind of failure it is.
    public let category: Category

    /// Creates the error for a libcurl result code.
    ///
    /// - Parameters:
    ///   - code: The `CURLcode`.
    ///   - message: The readable message.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
        self.category = Self.category(of: code)
    }

    /// Whether another attempt may succeed: a timeout, a refused or lost connection, or a DNS
    /// failure.
    public var isTransient: Bool {
        switch category {
        case .timeout, .connectionRefused, .dnsFailure, .connectionLost: true
        case .tls, .other: false
        }
    }

    public var description: String {
        "\(Self.name(of: category)) (curl \(code)): \(message)"
    }

    static func category(of code: Int) -> Category {
        switch code {
        case 28: .timeout  // CURLE_OPERATION_TIMEDOUT
        case 7: .connectionRefused  // CURLE_COULDNT_CONNECT
        case 5, 6: .dnsFailure  // CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_RESOLVE_HOST
        // CURLE_HTTP2, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
        // CURLE_SEND_FAIL_REWIND (a reused connection died mid-upload of a stream it cannot
        // rewind: a replayable body is sent again by retry, as URLSession's lost connection is),
        // CURLE_HTTP2_STREAM
        case 16, 18, 52, 55, 56, 65, 92: .connectionLost
        // CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
        // CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_PEER_FAILED_VERIFICATION,
        // CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE,
        // CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
        // CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT
        case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98: .tls
        default: .other
        }
    }

    private static func name(of category: Category) -> String {
        switch category {
        case .timeout: "timed out"
        case .connectionRefused: "connection refused"
        case .dnsFailure: "DNS failure"
        case .connectionLost: "connection lost"
        case .tls: "TLS failure"
        case .other: "transfer failed"
        }
    }
}

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
    ///
    /// A struct rather than an enum, so that a category added later breaks no `switch`: compare
    /// with `==` or match with `case .timeout`, and keep a `default`.
    public struct Category: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Sendable, Hashable {
            case timeout, connectionRefused, dnsFailure, connectionLost, tls, libraryUnavailable, other
        }
        private let kind: Kind

        /// The connect timeout or the total timeout (the configuration's, or the request's
        /// deadline) passed.
        public static let timeout = Category(kind: .timeout)
        /// Nothing accepted the connection.
        public static let connectionRefused = Category(kind: .connectionRefused)
        /// The host (or the proxy's) name could not be resolved.
        public static let dnsFailure = Category(kind: .dnsFailure)
        /// The connection broke or the server closed it before the response was complete (a
        /// body cut short included).
        public static let connectionLost = Category(kind: .connectionLost)
        /// The TLS handshake failed or the server's certificate was refused.
        public static let tls = Category(kind: .tls)
        /// The libcurl runtime could not be loaded, or lacks a function the transport calls:
        /// nothing was sent. The message names each library tried and why it did not do.
        public static let libraryUnavailable = Category(kind: .libraryUnavailable)
        /// Any other failure.
        public static let other = Category(kind: .other)

        /// A few words naming the category, as the error's description begins.
        public var description: String {
            switch kind {
            case .timeout: "timed out"
            case .connectionRefused: "connection refused"
            case .dnsFailure: "DNS failure"
            case .connectionLost: "connection lost"
            case .tls: "TLS failure"
            case .libraryUnavailable: "libcurl unavailable"
            case .other: "transfer failed"
            }
        }
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

    /// The error for a libcurl runtime that could not be bound: `CURLE_FAILED_INIT` (2), with
    /// the reason.
    init(libraryUnavailable reason: String) {
        code = 2
        message = "the libcurl runtime could not be loaded (\(reason))"
        category = .libraryUnavailable
    }

    /// Whether another attempt may succeed: a timeout, a refused or lost connection, or a DNS
    /// failure.
    public var isTransient: Bool {
        [.timeout, .connectionRefused, .dnsFailure, .connectionLost].contains(category)
    }

    /// Whether the request may have reached the server: not after a refused connection or a DNS
    /// failure, which come before a byte is sent; after any other failure it may have.
    public var mayHaveReachedServer: Bool {
        category != .connectionRefused && category != .dnsFailure
    }

    public var description: String {
        "\(category) (curl \(code)): \(message)"
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
}

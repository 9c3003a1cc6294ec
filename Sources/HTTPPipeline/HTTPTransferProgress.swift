/// How far one request's transfer has come, as a transport reports it: bytes sent and received,
/// and how many of each are expected when that is known.
///
/// Observe it per request through the context; `URLSessionTransport` reports it as bytes go
/// out and come in (a transport that does not report progress ignores the key):
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://example.com/big.iso")!)
/// request.context.progress = { progress in
///     if let total = progress.expectedReceivedBytes { print("\(progress.receivedBytes) of \(total)") }
/// }
/// ```
///
/// The callback is called from the transport's own thread, often: keep it short and hand the
/// value on (to an actor, the main actor, an `AsyncStream`).
public struct HTTPTransferProgress: Sendable, Equatable {
    /// Request body bytes sent so far.
    public var sentBytes: Int64
    /// The request body's length, when known.
    public var expectedSentBytes: Int64?
    /// Response body bytes received so far (after the transport's own decoding, if any).
    public var receivedBytes: Int64
    /// The response body's announced length, when known.
    public var expectedReceivedBytes: Int64?

    /// Creates a progress value.
    ///
    /// - Parameters:
    ///   - sentBytes: Request body bytes sent so far.
    ///   - expectedSentBytes: The request body's length, when known.
    ///   - receivedBytes: Response body bytes received so far.
    ///   - expectedReceivedBytes: The response body's announced length, when known.
    public init(
        sentBytes: Int64 = 0, expectedSentBytes: Int64? = nil, receivedBytes: Int64 = 0,
        expectedReceivedBytes: Int64? = nil
    ) {
        self.sentBytes = sentBytes
        self.expectedSentBytes = expectedSentBytes
        self.receivedBytes = receivedBytes
        self.expectedReceivedBytes = expectedReceivedBytes
    }
}

/// The context key of a request's progress observer: see `HTTPRequestContext.progress`.
package enum HTTPTransferProgressKey: HTTPContextKey {
    package typealias Value = @Sendable (HTTPTransferProgress) -> Void
}

extension HTTPRequestContext {
    /// Called with the transfer's progress as the transport sends and receives; `nil` by default.
    public var progress: (@Sendable (HTTPTransferProgress) -> Void)? {
        get { self[HTTPTransferProgressKey.self] }
        set { self[HTTPTransferProgressKey.self] = newValue }
    }
}

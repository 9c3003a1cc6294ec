/// A transport failure that says whether it is transient: gone, most likely, on the next attempt.
///
/// Retry's default policy (module `HTTPPipelineRetry`) retries a transient failure as it retries
/// a transient `URLError` (timed out, connection lost, cannot connect, host not found). Conform
/// the error type of your own transport to it so that retry understands it without knowing it.
///
/// ```swift
/// struct SocketError: Error, HTTPTransientFailure {
///     var code: Int32
///     var isTransient: Bool { code == 111 || code == 104 }   // ECONNREFUSED, ECONNRESET
///     var mayHaveReachedServer: Bool { code != 111 }
/// }
/// ```
public protocol HTTPTransientFailure: Error {
    /// Whether another attempt may succeed where this one failed.
    var isTransient: Bool { get }

    /// Whether the request may have reached the server: `false` only for a failure that came
    /// before a byte of it was sent (nothing accepted the connection, the name did not
    /// resolve), after which retry sends even a non-idempotent request again. `true` unless
    /// the type says otherwise.
    var mayHaveReachedServer: Bool { get }
}

extension HTTPTransientFailure {
    /// `true`: a failure may have come after the request reached the server unless its type
    /// knows better.
    public var mayHaveReachedServer: Bool { true }
}

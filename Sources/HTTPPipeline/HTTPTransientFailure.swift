/// A transport failure that says whether it is transient: gone, most likely, on the next attempt.
///
/// Retry's default policy (module `HTTPPipelineRetry`) retries a transient failure as it retries
/// a transient `URLError` (timed out, connection lost, cannot connect, host not found). Conform
/// the error type of your own transport to it so that retry understands it without knowing it.
///
/// ```swift
/// struct SocketError: Error, HTTPTransientFailure {
///     var code: Int32
///     var isTransient: Bool { code == 111 }   // ECONNREFUSED
/// }
/// ```
public protocol HTTPTransientFailure: Error {
    /// Whether another attempt may succeed where this one failed.
    var isTransient: Bool { get }
}

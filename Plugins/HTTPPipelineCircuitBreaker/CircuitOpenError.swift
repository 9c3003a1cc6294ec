/// A call the circuit breaker turned away without sending it: the circuit is open, or half-open
/// with its probes already in flight.
///
/// ```swift
/// do {
///     _ = try await pipeline.send(request)
/// } catch let open as CircuitOpenError {
///     myLogger.info("offline; try again in \(open.retryAfter)")
/// }
/// ```
///
/// Retry's default policy does not retry it: another attempt now would be turned away too.
public struct CircuitOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The circuit's key: the origin (`https://api.example.com:443`) or the context's key.
    public let key: String
    /// The circuit's state: ``CircuitState/open`` or ``CircuitState/halfOpen``.
    public let state: CircuitState
    /// How long from now until the circuit lets a probe through: the rest of the break while
    /// open; while half-open, until the probes in flight are given up on (one break after they
    /// went), if none of them has decided by then.
    public let retryAfter: Duration

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - key: The circuit's key.
    ///   - state: The circuit's state.
    ///   - retryAfter: The time until a probe may go.
    public init(key: String, state: CircuitState, retryAfter: Duration) {
        self.key = key
        self.state = state
        self.retryAfter = retryAfter
    }

    public var description: String {
        switch state {
        case .halfOpen: "the circuit for \(key) is half-open and its probes are in flight"
        default: "the circuit for \(key) is open; try again in \(retryAfter)"
        }
    }
}

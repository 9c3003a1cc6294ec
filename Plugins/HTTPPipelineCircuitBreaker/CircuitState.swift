/// Where a circuit stands.
public enum CircuitState: String, Sendable, Equatable, CustomStringConvertible {
    /// Calls go through, and their outcomes are judged.
    case closed
    /// Calls are turned away with ``CircuitOpenError``, and nothing is sent.
    case open
    /// A few probe calls go through to test the service; the others are turned away.
    case halfOpen = "half-open"

    public var description: String { rawValue }
}

/// A circuit changed state: what ``CircuitBreakerMiddleware``'s observer receives, in the order
/// the changes happened.
///
/// Its description is a log line: `circuit https://api.example.com:443: closed -> open`.
public struct CircuitStateChange: Sendable, Equatable, CustomStringConvertible {
    /// The circuit's key.
    public let key: String
    /// The state it left.
    public let from: CircuitState
    /// The state it entered.
    public let to: CircuitState

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - key: The circuit's key.
    ///   - from: The state it left.
    ///   - to: The state it entered.
    public init(key: String, from: CircuitState, to: CircuitState) {
        self.key = key
        self.from = from
        self.to = to
    }

    public var description: String { "circuit \(key): \(from) -> \(to)" }
}

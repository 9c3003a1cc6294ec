import Foundation
public import HTTPPipeline

/// When a circuit opens, how long it stays open, how it tests the service again, and what counts
/// as a failure: a value, checked when it is made.
///
/// The defaults: the circuit opens when at least half of the calls judged in the last 30 s
/// failed, once at least 10 were judged; it stays open 5 s; then one probe call is let through,
/// and its outcome closes the circuit again or reopens it.
///
/// ```swift
/// let strict = CircuitBreakerPolicy(failureRatio: 0.25, minimumThroughput: 20, breakDuration: .seconds(30))
/// ```
public struct CircuitBreakerPolicy: Sendable {
    /// What one call ended in, as the breaker judges it.
    public enum Outcome: Sendable {
        /// A response head arrived.
        case response(HTTPResponseHead)
        /// An error was thrown (never the caller's own cancellation: that is not judged).
        case failure(any Error)
    }

    /// The share of failed calls in the window that opens the circuit, in 0 < ratio ≤ 1.
    public let failureRatio: Double
    /// How many calls the window must hold before its ratio can open the circuit; at least 1.
    public let minimumThroughput: Int
    /// How far back the window reaches: calls older than this no longer count.
    public let samplingDuration: Duration
    /// How long an open circuit turns every call away before letting probes through.
    public let breakDuration: Duration
    /// How many calls a half-open circuit lets through at once to test the service; the first
    /// to be judged closes the circuit (success) or reopens it (failure). Probes that have not
    /// answered within a break are given up on, and others may go. At least 1.
    public let halfOpenProbes: Int
    /// Whether an outcome is the service's failure; ``defaultFailure(_:)`` by default. A response
    /// that is not a failure counts as a success; a thrown error that is not one is not judged at
    /// all (only an answer shows the service is well).
    public let isFailure: @Sendable (Outcome) -> Bool

    /// Creates a policy; numbers out of range are brought into it (a ratio into 0.01...1, counts
    /// to at least 1, durations to at least a millisecond).
    ///
    /// - Parameters:
    ///   - failureRatio: The share of failures that opens the circuit; 0.5 by default.
    ///   - minimumThroughput: The fewest calls judged before it can open; 10 by default.
    ///   - samplingDuration: The window; 30 s by default.
    ///   - breakDuration: How long it stays open; 5 s by default.
    ///   - halfOpenProbes: Probe calls let through when half-open; 1 by default.
    ///   - isFailure: What counts as a failure; ``defaultFailure(_:)`` by default.
    public init(
        failureRatio: Double = 0.5,
        minimumThroughput: Int = 10,
        samplingDuration: Duration = .seconds(30),
        breakDuration: Duration = .seconds(5),
        halfOpenProbes: Int = 1,
        isFailure: @escaping @Sendable (Outcome) -> Bool = CircuitBreakerPolicy.defaultFailure
    ) {
        self.failureRatio = failureRatio.isNaN ? 0.5 : min(max(failureRatio, 0.01), 1)
        self.minimumThroughput = max(minimumThroughput, 1)
        self.samplingDuration = max(samplingDuration, .milliseconds(1))
        self.breakDuration = max(breakDuration, .milliseconds(1))
        self.halfOpenProbes = max(halfOpenProbes, 1)
        self.isFailure = isFailure
    }

    /// The defaults described above.
    public static let `default` = CircuitBreakerPolicy()

    /// The service's failures: a 5xx status, an `HTTPTimeoutError`, or a transient transport
    /// error (timed out, connection lost, cannot connect, DNS failure, …: a `URLError`, or an
    /// `HTTPTransientFailure` such as `CurlTransportError` that says it is transient). Not a 4xx (the
    /// request's fault, and the service answered), not an invalid request, not another layer's
    /// own error.
    ///
    /// - Parameter outcome: What the call ended in.
    /// - Returns: `true` for a failure.
    @Sendable
    public static func defaultFailure(_ outcome: Outcome) -> Bool {
        switch outcome {
        case .response(let head):
            return head.status.kind == .serverError
        case .failure(let error):
            if error is HTTPTimeoutError { return true }
            if let urlError = error as? URLError { return URLError.transientCodes.contains(urlError.code) }
            // Another transport's error (CurlTransportError) says itself whether it is transient.
            if let failure = error as? any HTTPTransientFailure { return failure.isTransient }
            return false
        }
    }
}

/// A call the concurrency limit turned away: its queue was full, or the call waited in it longer
/// than the queue timeout. Nothing was sent.
///
/// ```swift
/// do {
///     _ = try await pipeline.send(request)
/// } catch let rejected as ConcurrencyLimitError {
///     print(rejected)   // "the queue for 8 requests in flight is full (100 waiting)"
/// }
/// ```
///
/// Retry's default policy does not retry it: a full queue is the client's own back-pressure, and
/// another attempt would only join the queue again.
public struct ConcurrencyLimitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the call was turned away.
    public enum Reason: Sendable, Equatable {
        /// The queue held its maximum number of waiting calls.
        case queueFull
        /// The call waited in the queue for this long without getting a slot.
        case queueTimeout(Duration)
    }

    /// Why the call was turned away.
    public let reason: Reason
    /// The most requests in flight the layer allows.
    public let limit: Int
    /// How many calls were waiting in the queue when this one was turned away (after it left).
    public let queueLength: Int

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - reason: Why the call was turned away.
    ///   - limit: The layer's limit.
    ///   - queueLength: The calls waiting at the time.
    public init(_ reason: Reason, limit: Int, queueLength: Int) {
        self.reason = reason
        self.limit = limit
        self.queueLength = queueLength
    }

    public var description: String {
        switch reason {
        case .queueFull:
            "the queue for \(limit) requests in flight is full (\(queueLength) waiting)"
        case .queueTimeout(let timeout):
            "no slot among \(limit) requests in flight came within the queue's \(timeout) (\(queueLength) still waiting)"
        }
    }
}

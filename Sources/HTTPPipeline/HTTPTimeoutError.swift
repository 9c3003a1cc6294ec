/// A call or one attempt of it ran out of time: which limit fired, and how long it was.
///
/// Thrown by `TimeoutMiddleware` (module `HTTPPipelineTimeout`) and by retry when its own
/// deadline cuts an attempt in flight. The work in flight was cancelled and has ended when this
/// error reaches you.
///
/// ```swift
/// do {
///     _ = try await pipeline.send(request)
/// } catch let timeout as HTTPTimeoutError where timeout.limit == .total {
///     print(timeout)   // "the call's 1 s deadline passed"
/// }
/// ```
///
/// A per-attempt timeout is worth another attempt (retry's default policy retries it); an
/// expired total deadline never is.
public struct HTTPTimeoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which limit fired.
    public enum Limit: Sendable, Equatable {
        /// One attempt took longer than its per-attempt timeout.
        case attempt
        /// The whole call passed its deadline.
        case total
    }

    /// Which limit fired.
    public let limit: Limit
    /// The limit's duration, as it was set.
    public let duration: Duration

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - limit: Which limit fired.
    ///   - duration: The limit's duration.
    public init(_ limit: Limit, after duration: Duration) {
        self.limit = limit
        self.duration = duration
    }

    /// Whether another attempt may help: `true` for a per-attempt timeout, `false` once the
    /// call's deadline passed.
    public var isRetryable: Bool { limit == .attempt }

    public var description: String {
        switch limit {
        case .attempt: "an attempt took longer than its \(Self.shown(duration)) timeout"
        case .total: "the call's \(Self.shown(duration)) deadline passed"
        }
    }

    /// `1 s`, `250 ms`, `1.5 s`.
    static func shown(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        if milliseconds < 1_000 { return "\(Int(milliseconds.rounded())) ms" }
        let seconds = duration.seconds
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

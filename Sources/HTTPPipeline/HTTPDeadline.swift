/// When a whole call must end, readable by any layer as the time remaining.
///
/// `TimeoutMiddleware` (module `HTTPPipelineTimeout`) sets it on `HTTPRequestContext/deadline`
/// for the layers inside it: retry reads it so it never waits or starts an attempt past it, and
/// your own layer can give a slow step what is left. It holds a function giving the time left on
/// the clock that set it, so it stays right whatever clock reads it.
///
/// ```swift
/// struct BudgetHeader: HTTPMiddleware {
///     func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
///         var request = request
///         if let deadline = request.context.deadline {
///             let milliseconds = Int(deadline.remaining / .milliseconds(1))
///             request.fields["X-Time-Budget-Ms"] = String(milliseconds)
///         }
///         return try await next(request)
///     }
/// }
/// ```
public struct HTTPDeadline: Sendable, CustomStringConvertible {
    /// The limit the deadline was set with, counted from when it was set.
    public let limit: Duration
    private let remainingTime: @Sendable () -> Duration
    /// Where the layers below register what ends their waits, when the deadline layer cuts the
    /// call without racing it (everything below keeps a cut deadline); `nil` otherwise.
    package var cut: DeadlineCut?

    /// Creates a deadline from a function giving the time left.
    ///
    /// - Parameters:
    ///   - limit: The limit it was set with.
    ///   - remaining: The time left now, on the clock that set it; negative once it passed.
    public init(limit: Duration, remaining: @escaping @Sendable () -> Duration) {
        self.limit = limit
        self.remainingTime = remaining
    }

    /// A deadline `limit` from now on `clock`.
    ///
    /// - Parameters:
    ///   - limit: How long from now.
    ///   - clock: The clock it is measured on; `ContinuousClock` by default.
    public init<C: Clock<Duration>>(after limit: Duration, on clock: C = ContinuousClock()) {
        let end = clock.now.advanced(by: limit)
        self.init(limit: limit) { clock.now.duration(to: end) }
    }

    /// The time left; zero once the deadline passed.
    public var remaining: Duration { max(remainingTime(), .zero) }

    /// Whether the deadline passed.
    public var hasPassed: Bool { remainingTime() <= .zero }

    /// The earlier of this deadline and `other`: a nested deadline only ever tightens the one
    /// outside it.
    ///
    /// - Parameter other: Another deadline, or `nil`.
    /// - Returns: Whichever has less time remaining (this one on a tie or when `other` is `nil`).
    public func earlier(_ other: HTTPDeadline?) -> HTTPDeadline {
        guard let other, other.remainingTime() < remainingTime() else { return self }
        return other
    }

    public var description: String {
        "\(HTTPTimeoutError.shown(remaining)) left of \(HTTPTimeoutError.shown(limit))"
    }
}

/// The context key of a call's deadline: see `HTTPRequestContext.deadline`.
package enum HTTPDeadlineKey: HTTPContextKey {
    package typealias Value = HTTPDeadline
}

extension HTTPRequestContext {
    /// When the whole call must end, for the layers inside the one that set it; `nil` when no
    /// layer outside set one. Set it with ``tightenDeadline(_:)`` so that a deadline already set
    /// further out is never loosened.
    public var deadline: HTTPDeadline? {
        get { self[HTTPDeadlineKey.self] }
        set { self[HTTPDeadlineKey.self] = newValue }
    }

    /// Sets ``deadline`` to the earlier of `deadline` and the one already set.
    ///
    /// - Parameter deadline: The new deadline.
    public mutating func tightenDeadline(_ deadline: HTTPDeadline) {
        self.deadline = deadline.earlier(self.deadline)
    }
}

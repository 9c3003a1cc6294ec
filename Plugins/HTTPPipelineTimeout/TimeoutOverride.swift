public import HTTPPipeline

/// What one call asks of a ``TimeoutMiddleware`` instead of its limit: set it on the request's
/// context (`HTTPRequestContext.totalTimeout`, `HTTPRequestContext.attemptTimeout`).
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://api.example.com/exports/big.csv")!)
/// request.context.totalTimeout = .limit(.seconds(120))   // this call may take longer
/// request.context.attemptTimeout = .off                  // and no attempt is cut
/// ```
public enum TimeoutOverride: Sendable, Equatable {
    /// This limit instead of the layer's.
    case limit(Duration)
    /// No limit for this call: the layer passes it through untouched.
    case off
}

/// The context key of a call's total-deadline override: see `HTTPRequestContext.totalTimeout`.
package enum TotalTimeoutKey: HTTPContextKey {
    package typealias Value = TimeoutOverride
}

/// The context key of a call's per-attempt override: see `HTTPRequestContext.attemptTimeout`.
package enum AttemptTimeoutKey: HTTPContextKey {
    package typealias Value = TimeoutOverride
}

extension HTTPRequestContext {
    /// What a ``TimeoutMiddleware/deadline(_:clock:)`` layer does for this call instead of its
    /// own limit; `nil` (the default) keeps it. A deadline set further out still applies: a
    /// nested deadline only tightens.
    public var totalTimeout: TimeoutOverride? {
        get { self[TotalTimeoutKey.self] }
        set { self[TotalTimeoutKey.self] = newValue }
    }

    /// What a ``TimeoutMiddleware/perAttempt(_:clock:)`` layer does for this call instead of its
    /// own limit; `nil` (the default) keeps it.
    public var attemptTimeout: TimeoutOverride? {
        get { self[AttemptTimeoutKey.self] }
        set { self[AttemptTimeoutKey.self] = newValue }
    }
}

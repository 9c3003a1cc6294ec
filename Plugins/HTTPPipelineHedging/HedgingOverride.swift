public import HTTPPipeline

/// What one call asks of a ``HedgingMiddleware`` instead of its policy: set it on the request's
/// context (`HTTPRequestContext.hedging`).
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://api.example.com/reports/today")!)
/// request.context.hedging = .off   // an expensive call: never send it twice
///
/// var search = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/search")!)
/// var policy = HedgingPolicy.after(.milliseconds(80))
/// policy.hedgesNonIdempotentMethods = true   // this POST is safe to send twice
/// search.context.hedging = .policy(policy)
/// ```
public enum HedgingOverride: Sendable {
    /// This policy instead of the layer's; the layer's budget and clock still apply.
    case policy(HedgingPolicy)
    /// No hedging for this call: it is passed through untouched, sent once.
    case off
}

/// The context key of a call's hedging override: see `HTTPRequestContext.hedging`.
package enum HedgingOverrideKey: HTTPContextKey {
    package typealias Value = HedgingOverride
}

/// The context key of an attempt's number under hedging: see `HTTPRequestContext.hedgeAttempt`.
package enum HedgeAttemptKey: HTTPContextKey {
    package typealias Value = Int
}

extension HTTPRequestContext {
    /// What a ``HedgingMiddleware`` does for this call instead of its own policy; `nil` (the
    /// default) keeps it.
    public var hedging: HedgingOverride? {
        get { self[HedgingOverrideKey.self] }
        set { self[HedgingOverrideKey.self] = newValue }
    }

    /// Which attempt of a hedged call this request is, for the layers inside a
    /// ``HedgingMiddleware`` (a log line, a header): 1 for the first, 2 and up for hedges; `nil`
    /// when the call is not hedged.
    public var hedgeAttempt: Int? {
        get { self[HedgeAttemptKey.self] }
        set { self[HedgeAttemptKey.self] = newValue }
    }
}

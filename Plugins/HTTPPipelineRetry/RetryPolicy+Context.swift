public import HTTPPipeline

/// The context key of a per-call retry policy: see `HTTPRequestContext.retryPolicy`.
package enum RetryPolicyKey: HTTPContextKey {
    package typealias Value = RetryPolicy
}

extension HTTPRequestContext {
    /// The policy ``RetryMiddleware`` uses for this call instead of its own; ``RetryPolicy/none``
    /// sends it once. `nil` (the default) keeps the middleware's policy. The middleware's budget
    /// and clock still apply.
    public var retryPolicy: RetryPolicy? {
        get { self[RetryPolicyKey.self] }
        set { self[RetryPolicyKey.self] = newValue }
    }
}

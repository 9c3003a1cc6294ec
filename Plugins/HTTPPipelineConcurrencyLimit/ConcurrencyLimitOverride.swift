public import HTTPPipeline

/// What one call asks of a ``ConcurrencyLimitMiddleware``: set it on the request's context
/// (`HTTPRequestContext.concurrencyLimit`).
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://api.example.com/session/keepalive")!)
/// request.context.concurrencyLimit = .priority   // ahead of every call waiting without it
/// ```
public enum ConcurrencyLimitOverride: Sendable, Equatable {
    /// Wait ahead of every call without priority (in FIFO order among prioritised calls). The
    /// call still needs a slot, and is turned away like any other when the queue is full.
    case priority
    /// Take no slot and never wait: the call goes straight through and counts for nothing. For
    /// calls that must never queue behind others (a health check, a sign-out).
    case bypass
}

/// The context key of a call's concurrency-limit override: see
/// `HTTPRequestContext.concurrencyLimit`.
package enum ConcurrencyLimitOverrideKey: HTTPContextKey {
    package typealias Value = ConcurrencyLimitOverride
}

extension HTTPRequestContext {
    /// How a ``ConcurrencyLimitMiddleware`` treats this call; `nil` (the default) waits its turn.
    public var concurrencyLimit: ConcurrencyLimitOverride? {
        get { self[ConcurrencyLimitOverrideKey.self] }
        set { self[ConcurrencyLimitOverrideKey.self] = newValue }
    }
}

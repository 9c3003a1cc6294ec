public import HTTPPipeline

/// What one call asks of ``AuthMiddleware`` instead of its usual work: set it on the request's
/// context (`HTTPRequestContext.auth`).
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://api.example.com/status")!)
/// request.context.auth = .skip   // a public endpoint: no credential, no refresh
/// ```
public enum AuthOverride: Sendable {
    /// Send the call without a credential, and never refresh for it.
    case skip
    /// Authorise the call with another middleware's credential (another account, another
    /// service's key), with that middleware's own refreshes and options.
    case using(AuthMiddleware)
}

/// The context key of a per-call auth override: see `HTTPRequestContext.auth`.
package enum AuthOverrideKey: HTTPContextKey {
    package typealias Value = AuthOverride
}

extension HTTPRequestContext {
    /// What ``AuthMiddleware`` does for this call instead of its usual work; `nil` (the default)
    /// for its usual work.
    public var auth: AuthOverride? {
        get { self[AuthOverrideKey.self] }
        set { self[AuthOverrideKey.self] = newValue }
    }
}

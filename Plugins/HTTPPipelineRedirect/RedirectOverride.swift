public import HTTPPipeline

/// What one call asks of ``RedirectMiddleware`` instead of its policy: set it on the request's
/// context (`HTTPRequestContext.redirects`).
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://api.example.com/short/abc")!)
/// request.context.redirects = .doNotFollow   // the caller wants the 302 and its Location
/// ```
public enum RedirectOverride: Sendable, Equatable {
    /// Return the first response, a redirect included, as it is.
    case doNotFollow
    /// Follow at most this many redirects for this call (instead of
    /// ``RedirectPolicy/maximumHops``); zero makes a redirect fail with
    /// ``RedirectError/tooManyRedirects(limit:)``.
    case maximumHops(Int)
}

/// The context key of a per-call redirect override: see `HTTPRequestContext.redirects`.
package enum RedirectOverrideKey: HTTPContextKey {
    package typealias Value = RedirectOverride
}

extension HTTPRequestContext {
    /// What ``RedirectMiddleware`` does for this call instead of following its policy; `nil` (the
    /// default) follows the policy.
    public var redirects: RedirectOverride? {
        get { self[RedirectOverrideKey.self] }
        set { self[RedirectOverrideKey.self] = newValue }
    }
}

public import HTTPPipeline

/// The context key of a call's redirect observer: see `HTTPRequestContext.onRedirect`.
package enum RedirectObserverKey: HTTPContextKey {
    package typealias Value = @Sendable (HTTPRedirectHop) -> Void
}

extension HTTPRequestContext {
    /// Called by ``RedirectMiddleware`` with each redirect it follows for this call, before the
    /// next hop is sent; `nil` by default. The last hop's `to` is the URL the final response
    /// came from (no hop: the request's own).
    ///
    /// ```swift
    /// var request = HTTPRequest(url: URL(string: "https://example.com/short/abc")!)
    /// request.context.onRedirect = { hop in print("\(hop.status): \(hop.from) -> \(hop.to)") }
    /// ```
    public var onRedirect: (@Sendable (HTTPRedirectHop) -> Void)? {
        get { self[RedirectObserverKey.self] }
        set { self[RedirectObserverKey.self] = newValue }
    }
}

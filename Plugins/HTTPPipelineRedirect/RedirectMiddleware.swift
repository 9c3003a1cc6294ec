import Foundation
public import HTTPPipeline

/// Follows redirects as hops of the pipeline: each hop goes through the layers inside this one,
/// and a hop to another origin drops the caller's credentials.
///
/// ```swift
/// import HTTPPipelineAuth
/// import HTTPPipelineLogging
/// import HTTPPipelineRetry
///
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     RedirectMiddleware()                              // outermost of the four: one call, many hops
///     RetryMiddleware(policy: .default)                 // retries a failing hop, not the chain
///     AuthMiddleware(source: tokenStore)                // authorises each hop, for its origin
///     LoggingMiddleware(level: .basic, sink: sink)      // one record per hop
/// }
/// ```
///
/// The transport must hand 3xx responses back rather than follow them (`URLSessionTransport`
/// does by default). On a 301, 302, 303, 307 or 308 the middleware sends the next hop to the
/// `Location`, under its ``RedirectPolicy``:
///
/// - **Methods and bodies.** A 303 (to anything but `HEAD`), and a 301 or 302 to anything but
///   `GET` or `HEAD`, become a `GET` without a body: `Content-Type`, `Content-Length`,
///   `Content-Encoding` and `Transfer-Encoding` go with it. A 307 or 308 keeps the method and
///   the body, and is followed only when the body can be sent again (`HTTPRequest.isReplayable`):
///   with a single-pass stream already sent, the 3xx is returned as it is. Other statuses (300,
///   304) are never followed.
/// - **Origins.** A credential never leaves the origin it was meant for: a hop to another
///   scheme, host or port drops `Authorization`, `Proxy-Authorization`, `Cookie`, every field a
///   layer marked as a credential (`HTTPRequestContext.credentialFields`: all the auth plugin
///   sets, the default headers declared credentials), every field whose name the redaction
///   engine knows as secret (`X-API-Key`, `Api-Key`, any `…-Token`), and the fields of
///   ``RedirectPolicy/strippedAcrossOrigins``; a hop within the origin keeps them. What a hop dropped stays dropped for the rest of the
///   call, even back at the first origin (auth inside attaches its credential again there).
/// - **Where to.** A relative `Location` is resolved against the URL that answered (RFC 3986);
///   when it has no fragment, that URL's fragment carries over (RFC 9110 §10.2.2). A missing or
///   malformed `Location`, or one that is not `http` or `https` (`file:`, `data:`,
///   `javascript:`, `ftp:`), throws a ``RedirectError`` and nothing is sent; so does `https` to
///   `http`, unless ``RedirectPolicy/allowsInsecureRedirects``.
/// - **Limits.** More than ``RedirectPolicy/maximumHops`` redirects throw
///   ``RedirectError/tooManyRedirects(limit:)``; a hop to a method and URL already sent in the
///   call throws ``RedirectError/loop(method:url:)``.
/// - **Bodies of redirects** are dropped unread (a streamed one stops downloading); the caller
///   gets the final response.
/// - **Which hops.** Every request sent carries `HTTPRequestContext.redirectHistory` (the
///   original URL and the hops so far) for the layers inside; the caller may watch the hops with
///   `HTTPRequestContext.onRedirect`, whose last `to` is the URL the final response came from.
///   One call can turn following off or cap it with `HTTPRequestContext.redirects`.
///
/// ## Ordering
/// - **Outside auth**: auth authorises each hop for its own origin (by default only the call's
///   first origin gets the credential) and a 401 from another origin triggers no refresh. With
///   auth outside, the credential is attached once and this layer drops it across origins, but a
///   401 at the end of the chain makes auth refresh and replay the whole chain.
/// - **Outside retry**: a failing hop is retried on its own, with its own method's idempotency.
///   With retry outside, a retry starts the chain again from the first URL.
/// - **Outside logging**: one record per hop, each with its own URL and status. Inside logging,
///   one record per call with the first URL and the final status.
/// - **Inside default headers**: they are set once on the call, so a hop to another origin drops
///   those that carry a credential (declared so, named like a secret, or listed in
///   ``RedirectPolicy/strippedAcrossOrigins``). Inside this layer, default headers are added to
///   every hop, another origin's included: declare such a header a credential and keep it out.
/// - **Gzip** may be on either side: the final body is decoded the same way and redirect bodies
///   are dropped either way; keep it innermost, as the recommended stack does.
public struct RedirectMiddleware: HTTPMiddleware {
    /// Which redirects are followed and what crosses origins.
    public let policy: RedirectPolicy

    /// Creates the middleware.
    ///
    /// - Parameter policy: Which redirects are followed; ``RedirectPolicy/default`` by default.
    public init(policy: RedirectPolicy = .default) {
        self.policy = policy
    }

    /// Sends the request, and each redirect's next hop, until a response that is not followed.
    ///
    /// - Parameters:
    ///   - request: The call's first request.
    ///   - next: The rest of the pipeline, called once per hop.
    /// - Returns: The first response that is not a followed redirect.
    /// - Throws: ``RedirectError`` when a redirect cannot or may not be followed, or what `next`
    ///   threw.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var limit = policy.maximumHops
        switch request.context.redirects {
        case nil: break
        case .doNotFollow?: return try await next(request)
        case .maximumHops(let hops)?: limit = max(hops, 0)
        }
        // The first request goes out as it came, not copied: a request without a history is at
        // its call's origin, and the history and the loop check cost nothing until a redirect
        // arrives.
        let history = request.context.redirectHistory
        let hop: Hop
        do {
            // In a scope of its own: a redirect's response (and a streamed body's transfer, which
            // may hold the only connection to the host) ends before the hop is sent.
            let response = try await next(request)
            guard
                let found = try nextHop(
                    after: response.head, of: request, hopsSoFar: history?.hops.count ?? 0, limit: limit)
            else { return response }
            hop = found
        }
        return try await following(hop, from: request, history: history, limit: limit, next: next)
    }

    /// Follows `hop` and the redirects after it, from the call's `request`, until a response that
    /// is not one to follow.
    private func following(
        _ firstHop: Hop, from request: HTTPRequest, history: HTTPRedirectHistory?, limit: Int, next: HTTPNext
    ) async throws -> HTTPResponse {
        var current = request
        var history = history
        var hop = firstHop
        var sent: Set<Visit> = [Visit(request)]
        while true {
            guard sent.insert(Visit(hop.request)).inserted else {
                throw RedirectError.loop(method: hop.request.method, url: hop.request.url)
            }
            var hops = history ?? HTTPRedirectHistory(originalURL: request.url)
            hops.hops.append(hop.record)
            history = hops
            hop.request.context.redirectHistory = hops
            request.context.onRedirect?(hop.record)
            current.report(
                .redirectFollowed, status: hop.record.status,
                detail: HTTPOrigin(hop.record.to)?.description ?? "no origin")
            current = hop.request
            let response = try await next(current)
            guard
                let following = try nextHop(
                    after: response.head, of: current, hopsSoFar: hops.hops.count, limit: limit)
            else { return response }
            // A redirect's response ends with this pass: its body is dropped unread.
            hop = following
        }
    }

    /// One request already sent in the call: its method and URL without the fragment.
    struct Visit: Hashable {
        let method: HTTPMethod
        let url: String

        init(_ request: HTTPRequest) {
            method = request.method
            let text = request.url.absoluteString
            url = text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
        }
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module.
extension RedirectMiddleware: BindsWhenBuilt {}

/// Keeps a cut deadline: it waits for nothing but the layers below, hop after hop.
extension RedirectMiddleware: KeepsDeadline {}

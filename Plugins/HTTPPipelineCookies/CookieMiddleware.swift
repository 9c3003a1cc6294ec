import Foundation
public import HTTPPipeline

/// Keeps the cookies responses set in a ``CookieJar`` and sends them back where they belong,
/// the same over every transport.
///
/// ```swift
/// import HTTPPipeline
/// import HTTPPipelineCookies
///
/// let jar = CookieJar()
/// let client = Pipeline(transport: URLSessionTransport()) { CookieMiddleware(jar: jar) }
/// ```
///
/// - **Each request** gets a `Cookie` field from the jar for its URL, unless it already has one:
///   a caller's own field is sent as it is, with nothing added.
/// - **Each response** (a 3xx included) has its `Set-Cookie` fields stored before it goes up, so
///   the next hop of a redirect carries them; ``CookieDecision``s say what was stored or refused
///   and why (``HTTPPipeline/HTTPResponse/cookieDecisions``).
///
/// ## Ordering
///
/// **Inside redirects and retry, outside the cache.** Inside redirects, every hop asks the jar
/// for its own URL's cookies, the cookies a 3xx sets reach the next hop, and the redirect layer
/// (which drops a caller's `Cookie` field when the origin changes) never carries a jar's cookie
/// to another origin. Inside retry, every attempt carries the cookies as they are then. Outside
/// the cache, the cache keys what it stores by the `Cookie` the request carries. Its ordering
/// diagnostics say so. The standard stack puts it just inside auth when
/// `StandardOptions.cookies` is set.
///
/// One jar per signed-in user: make a jar per identity, and clear it (``CookieJar/removeAll()``)
/// on sign-out.
public struct CookieMiddleware: HTTPMiddleware, PlacementDeclaring {
    /// The jar cookies are kept in.
    public let jar: CookieJar

    /// Creates the middleware.
    ///
    /// - Parameter jar: The jar; an empty in-memory one by default.
    public init(jar: CookieJar = CookieJar()) {
        self.jar = jar
    }

    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        if request.fields[.cookie] == nil, let field = jar.cookieField(for: request.url) {
            request.fields[.cookie] = field
        }
        var response = try await next(request)
        if response.fields[.setCookie] != nil {
            let decisions = jar.receive(response.fields, from: request.url)
            response.context[CookieDecisionsKey.self] = decisions
        }
        return response
    }

    /// Cookies.
    public var roles: Set<MiddlewareRole> { [.cookies] }

    /// Inside redirects, outside the cache.
    public var placementExpectations: [PlacementExpectation] {
        [
            .inside(
                .redirects,
                because:
                    "each hop must carry its own URL's cookies and the cookies a 3xx sets; outside redirects, the first hop's cookies follow every hop and a 3xx's cookies never reach the next"
            ),
            .outside(
                "cache",
                because:
                    "the cache keys what it stores by the Cookie a request carries; inside it, one user's cached response would answer another's request"
            ),
        ]
    }
}

extension MiddlewareRole {
    /// Keeps and sends cookies.
    public static let cookies: MiddlewareRole = "cookies"
}

enum CookieDecisionsKey: HTTPContextKey {
    typealias Value = [CookieDecision]
}

extension HTTPResponse {
    /// What the cookie jar did with each `Set-Cookie` of this response (``CookieMiddleware``),
    /// in order; empty when it set none.
    public var cookieDecisions: [CookieDecision] {
        context[CookieDecisionsKey.self] ?? []
    }
}

/// Keeps a cut deadline: it reads and stores cookies and waits for nothing but the layers below.
extension CookieMiddleware: KeepsDeadline {}

public import Foundation

/// Where a call started and the redirects it followed so far, as a redirect layer tells the
/// layers inside it (`HTTPRequestContext.redirectHistory`).
///
/// A layer that follows redirects sets it on every request it sends: on the first one with no
/// hops, on each later one with the hops that led there. A layer inside reads it without knowing
/// which redirect layer set it; auth keeps its credential to ``originalOrigin`` this way:
///
/// ```swift
/// struct OriginOnlyHeader: HTTPMiddleware {
///     func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
///         guard HTTPOrigin(request.url) == request.callOrigin else { return try await next(request) }
///         var request = request
///         request.fields["X-Tenant"] = "shelf"   // only where the call started
///         return try await next(request)
///     }
/// }
/// ```
public struct HTTPRedirectHistory: Sendable, Hashable {
    /// The URL the call was made to, before any redirect.
    public let originalURL: URL
    /// The redirects followed so far, first first; empty on the call's first request.
    public var hops: [HTTPRedirectHop]

    /// Creates a history.
    ///
    /// - Parameters:
    ///   - originalURL: The URL the call was made to.
    ///   - hops: The redirects followed so far; none by default.
    public init(originalURL: URL, hops: [HTTPRedirectHop] = []) {
        self.originalURL = originalURL
        self.hops = hops
    }

    /// The origin of ``originalURL``, or `nil` when it has none.
    public var originalOrigin: HTTPOrigin? { HTTPOrigin(originalURL) }

    /// The URL the last hop led to: ``originalURL`` before any hop.
    public var currentURL: URL { hops.last?.to ?? originalURL }
}

/// One redirect a call followed: the 3xx, where it came from and where it led.
public struct HTTPRedirectHop: Sendable, Hashable {
    /// The redirect's status: 301, 302, 303, 307 or 308.
    public let status: HTTPResponse.Status
    /// The URL that answered with the redirect.
    public let from: URL
    /// The URL the next request goes to: the `Location` resolved against ``from``.
    public let to: URL
    /// The method the next request uses (`GET` after a 303, or after a 301 or 302 to a `POST`).
    public let method: HTTPMethod

    /// Creates a hop.
    ///
    /// - Parameters:
    ///   - status: The redirect's status.
    ///   - from: The URL that answered with it.
    ///   - to: The URL the next request goes to.
    ///   - method: The next request's method.
    public init(status: HTTPResponse.Status, from: URL, to: URL, method: HTTPMethod) {
        self.status = status
        self.from = from
        self.to = to
        self.method = method
    }
}

/// The context key of a call's redirect history: see `HTTPRequestContext.redirectHistory`.
package enum HTTPRedirectHistoryKey: HTTPContextKey {
    package typealias Value = HTTPRedirectHistory
}

extension HTTPRequestContext {
    /// Where the call started and the redirects it followed so far, set by a redirect layer
    /// outside; `nil` when there is none (the request is the call's only one).
    public var redirectHistory: HTTPRedirectHistory? {
        get { self[HTTPRedirectHistoryKey.self] }
        set { self[HTTPRedirectHistoryKey.self] = newValue }
    }
}

extension HTTPRequest {
    /// The origin the call started at: that of the redirect history's original URL when a
    /// redirect layer outside set one, else the request's own. `nil` when that URL has none.
    public var callOrigin: HTTPOrigin? {
        HTTPOrigin(context.redirectHistory?.originalURL ?? url)
    }
}

public import Foundation
public import HTTPPipeline

/// Why ``RedirectMiddleware`` stopped following a redirect. Nothing is sent for the redirect
/// that failed; the 3xx response is dropped.
///
/// The descriptions show origins and paths, never a query or user info, which may hold secrets.
public enum RedirectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call met one more redirect after following `limit` of them.
    case tooManyRedirects(limit: Int)
    /// The redirect leads to a request (the same method and URL, fragment aside) this call
    /// already sent.
    case loop(method: HTTPMethod, url: URL)
    /// A 301, 302, 303, 307 or 308 without a `Location` field.
    case missingLocation(status: Int)
    /// A `Location` that is not a URI reference, or resolves to a URL without a host.
    case malformedLocation(status: Int, location: String)
    /// A `Location` whose scheme is not `http` or `https` (`file:`, `data:`, `javascript:`,
    /// `ftp:`…); `scheme` in lower case.
    case unsupportedScheme(status: Int, scheme: String)
    /// A redirect from `https` to `http`, refused unless ``RedirectPolicy/allowsInsecureRedirects``.
    case insecureRedirect(from: HTTPOrigin, to: HTTPOrigin)

    public var description: String {
        switch self {
        case .tooManyRedirects(let limit):
            "more than \(limit) redirect\(limit == 1 ? "" : "s"): the call was given up"
        case .loop(let method, let url):
            "a redirect loop: \(method) \(Self.shown(url)) was already sent in this call"
        case .missingLocation(let status):
            "a \(status) redirect without a Location"
        case .malformedLocation(let status, _):
            "a \(status) redirect whose Location is not a URL with a host"
        case .unsupportedScheme(let status, let scheme):
            "a \(status) redirect to a \(scheme): URL; only http and https are followed"
        case .insecureRedirect(let from, let to):
            "a redirect from \(from) to \(to) would leave https: refused by the redirect policy"
        }
    }

    /// The URL's origin and path: no user info, query or fragment.
    static func shown(_ url: URL) -> String {
        let origin = HTTPOrigin(url)?.description ?? "<no origin>"
        return origin + url.path(percentEncoded: true)
    }
}

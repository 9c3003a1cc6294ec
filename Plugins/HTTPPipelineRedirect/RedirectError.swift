public import Foundation
public import HTTPPipeline

/// Why ``RedirectMiddleware`` stopped following a redirect. Nothing is sent for the redirect
/// that failed; the 3xx response is dropped.
///
/// The descriptions show origins and paths, never a query or user info, which may hold secrets.
public struct RedirectError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case tooManyRedirects, loop, missingLocation, malformedLocation, unsupportedScheme, insecureRedirect
    }

    private let code: Code
    /// The redirect's status, for an error about one redirect; `nil` otherwise.
    public let status: Int?
    /// What went wrong, in words that hold no query, fragment or user info.
    public let description: String

    private init(_ code: Code, status: Int? = nil, _ description: String) {
        self.code = code
        self.status = status
        self.description = description
    }

    /// The call met one more redirect after following `limit` of them.
    ///
    /// - Parameter limit: The most redirects the policy follows.
    /// - Returns: The error.
    public static func tooManyRedirects(limit: Int) -> RedirectError {
        RedirectError(.tooManyRedirects, "more than \(limit) redirect\(limit == 1 ? "" : "s"): the call was given up")
    }

    /// The redirect leads to a request (the same method and URL, fragment aside) this call
    /// already sent.
    ///
    /// - Parameters:
    ///   - method: The method of the request it leads to.
    ///   - url: Its URL.
    /// - Returns: The error.
    public static func loop(method: HTTPMethod, url: URL) -> RedirectError {
        RedirectError(.loop, "a redirect loop: \(method) \(shown(url)) was already sent in this call")
    }

    /// A 301, 302, 303, 307 or 308 without a `Location` field.
    ///
    /// - Parameter status: The redirect's status.
    /// - Returns: The error.
    public static func missingLocation(status: Int) -> RedirectError {
        RedirectError(.missingLocation, status: status, "a \(status) redirect without a Location")
    }

    /// A `Location` that is not a URI reference, or resolves to a URL without a host.
    ///
    /// - Parameters:
    ///   - status: The redirect's status.
    ///   - location: The field's value (not shown in the description).
    /// - Returns: The error.
    public static func malformedLocation(status: Int, location: String) -> RedirectError {
        RedirectError(
            .malformedLocation, status: status, "a \(status) redirect whose Location is not a URL with a host")
    }

    /// A `Location` whose scheme is not `http` or `https` (`file:`, `data:`, `javascript:`,
    /// `ftp:`…).
    ///
    /// - Parameters:
    ///   - status: The redirect's status.
    ///   - scheme: The scheme, in lower case.
    /// - Returns: The error.
    public static func unsupportedScheme(status: Int, scheme: String) -> RedirectError {
        RedirectError(
            .unsupportedScheme, status: status,
            "a \(status) redirect to a \(scheme): URL; only http and https are followed")
    }

    /// A redirect from `https` to `http`, refused unless ``RedirectPolicy/allowsInsecureRedirects``.
    ///
    /// - Parameters:
    ///   - from: The origin redirected from.
    ///   - to: The origin redirected to.
    /// - Returns: The error.
    public static func insecureRedirect(from: HTTPOrigin, to: HTTPOrigin) -> RedirectError {
        RedirectError(
            .insecureRedirect, "a redirect from \(from) to \(to) would leave https: refused by the redirect policy")
    }

    /// Whether the call met more redirects than its policy follows.
    public var isTooManyRedirects: Bool { code == .tooManyRedirects }

    /// The URL's origin and path: no user info, query or fragment.
    static func shown(_ url: URL) -> String {
        let origin = HTTPOrigin(url)?.description ?? "<no origin>"
        return origin + url.path(percentEncoded: true)
    }
}

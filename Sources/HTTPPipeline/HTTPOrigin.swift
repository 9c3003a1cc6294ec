public import Foundation

/// Where a request goes, as far as credentials are concerned: a scheme, a host and a port (RFC
/// 6454's origin).
///
/// Two URLs have the same origin when their schemes, hosts and ports are equal. The scheme and
/// host are kept in lower case and a missing port is the scheme's default, so
/// `HTTPS://API.example.com/books` and `https://api.example.com:443/` are one origin, while
/// `http://api.example.com` and `https://api.example.com:8443` are two others.
///
/// ```swift
/// let api = HTTPOrigin(URL(string: "https://API.example.com/books")!)
/// let same = HTTPOrigin(URL(string: "https://api.example.com:443/loans")!)
/// let other = HTTPOrigin(URL(string: "https://cdn.example.com/covers/1.jpg")!)
/// print(api == same, api == other)   // true false
/// ```
///
/// A redirect to another origin drops the caller's credentials; auth sends a credential only to
/// the origin a call started at, unless told otherwise (`HTTPRedirectHistory` says where that was).
public struct HTTPOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, in lower case: `http` or `https` for the requests a pipeline sends.
    public let scheme: String
    /// The host, in lower case; an IPv6 address without its brackets.
    public let host: String
    /// The port, the scheme's default when the URL gives none.
    public let port: Int

    /// Creates an origin from its parts.
    ///
    /// - Parameters:
    ///   - scheme: The scheme, in any case.
    ///   - host: The host, in any case; an IPv6 address with or without brackets.
    ///   - port: The port; `nil` for the scheme's default.
    /// - Returns: `nil` when the host is empty, or the port is missing and the scheme has no
    ///   default one (only `http`, `https`, `ws` and `wss` have one) or is out of range.
    public init?(scheme: String, host: String, port: Int? = nil) {
        let scheme = scheme.lowercased()
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !scheme.isEmpty, !host.isEmpty, let port = port ?? Self.defaultPort(of: scheme),
            (0...65535).contains(port)
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The origin of a URL.
    ///
    /// - Parameter url: An absolute URL.
    /// - Returns: `nil` when the URL has no scheme or host, or no port and a scheme without a
    ///   default one.
    public init?(_ url: URL) {
        guard let scheme = url.scheme, let host = url.host(percentEncoded: false) else { return nil }
        self.init(scheme: scheme, host: host, port: url.port)
    }

    /// `scheme://host:port`, the port always written, an IPv6 host in brackets.
    public var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The port a scheme uses when a URL names none, if it has one.
    static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}

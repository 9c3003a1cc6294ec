import Foundation

/// Hosts and paths as RFC 6265bis §5.1.2 to §5.1.4 compare them.
enum CookieHost {
    /// The canonical host of `url` (§5.1.2): lowercased ASCII, IPv6 literals without brackets, a
    /// name outside ASCII (Foundation hands one over percent-encoded) in its A-label (`xn--`) form
    /// by libidn2 (``IDNA``); `nil` for no host, or one that cannot be canonicalized (libidn2
    /// missing or refusing it): a cookie the jar cannot place is neither stored nor sent.
    static func canonical(_ url: URL) -> String? {
        guard var host = url.host(percentEncoded: true), !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.contains("%") {
            guard let decoded = host.removingPercentEncoding else { return nil }
            host = decoded
        }
        if !host.utf8.allSatisfy({ $0 < 0x80 }) {
            guard let ascii = IDNA.toASCII(host) else { return nil }
            host = ascii
        }
        return SetCookie.asciiLowercased(host)
    }

    /// Whether `host` is an IP address (IPv4 dotted or IPv6).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// Whether `host` domain-matches `domain` (§5.1.3).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        guard !domain.isEmpty, host.hasSuffix(domain), !isIPAddress(host) else { return false }
        let before = host.utf8.dropLast(domain.utf8.count).last
        return before == UInt8(ascii: ".")
    }

    /// The port `url` goes to: its own, or its scheme's default.
    static func port(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "https", "wss": return 443
        case "http", "ws": return 80
        default: return nil
        }
    }

    /// The path of `url` as sent: percent-encoded, `/` when empty.
    static func path(_ url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    /// The default path of a cookie set by a request to `path` (§5.1.4).
    static func defaultPath(_ path: String) -> String {
        guard path.first == "/", let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// Whether `requestPath` path-matches `cookiePath` (§5.1.4), byte by byte.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let request = requestPath.utf8
        let cookie = cookiePath.utf8
        guard request.count >= cookie.count, request.starts(with: cookie) else { return false }
        if request.count == cookie.count || cookie.last == UInt8(ascii: "/") { return true }
        return request[request.index(request.startIndex, offsetBy: cookie.count)] == UInt8(ascii: "/")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

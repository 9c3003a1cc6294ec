public import Foundation

/// One stored cookie, with the fields RFC 6265bis §5.7 keeps for it.
///
/// Its ``description`` never shows its value: cookies are credentials.
public struct Cookie: Sendable, Hashable, CustomStringConvertible {
    /// The name; empty for a nameless cookie (`Set-Cookie: value`).
    public var name: String
    /// The value, as the server sent it (quotes included).
    public var value: String
    /// The host it belongs to (``isHostOnly``) or the domain it is shared under, lowercased.
    public var domain: String
    /// The path it is sent under.
    public var path: String
    /// When it expires; `nil` for a session cookie.
    public var expires: Date?
    /// When it was first stored (a replacement keeps the first one's), for ordering.
    public var created: Date
    /// When it was last sent or stored, for eviction.
    public var lastAccessed: Date
    /// Whether it goes only to the host that set it (no `Domain` attribute).
    public var isHostOnly: Bool
    /// Whether it goes only over secure connections (`Secure`).
    public var isSecure: Bool
    /// Whether a browser would keep it from scripts (`HttpOnly`); this client sends it as any other.
    public var isHTTPOnly: Bool
    /// Its `SameSite` attribute.
    public var sameSite: SameSite
    /// The port of the origin that set it: with ``CookieJar/Options/bindsToPort`` it goes only
    /// there; `nil` (a cookie from a file, or one you make) for every port.
    public var port: Int?
    /// The order it was stored in among cookies created in the same instant.
    var sequence: UInt64 = 0

    /// Creates a cookie.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - domain: The host or domain, lowercased.
    ///   - path: The path; `/` by default.
    ///   - expires: When it expires; `nil` for a session cookie.
    ///   - created: When it was stored; now by default.
    ///   - isHostOnly: Whether it goes only to `domain` itself; `true` by default.
    ///   - isSecure: Whether it goes only over secure connections.
    ///   - isHTTPOnly: Whether it is `HttpOnly`.
    ///   - sameSite: Its `SameSite` attribute.
    ///   - port: The port it goes to; `nil` (every port) by default.
    public init(
        name: String, value: String, domain: String, path: String = "/", expires: Date? = nil, created: Date = Date(),
        isHostOnly: Bool = true, isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite = .default,
        port: Int? = nil
    ) {
        self.port = port
        self.name = name
        self.value = value
        self.domain = domain.lowercased()
        self.path = path
        self.expires = expires
        self.created = created
        self.lastAccessed = created
        self.isHostOnly = isHostOnly
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
    }

    /// Whether it is kept past the end of the session (it has an expiry).
    public var isPersistent: Bool { expires != nil }

    /// Whether it has expired at `date`.
    public func isExpired(at date: Date) -> Bool {
        expires.map { $0 <= date } ?? false
    }

    /// Name, domain and path; the value is never shown.
    public var description: String {
        "Cookie(\(name.isEmpty ? "<nameless>" : name)=<redacted>; \(isHostOnly ? "host" : "domain")=\(domain); path=\(path)\(isSecure ? "; Secure" : ""))"
    }

    /// The `SameSite` attribute (RFC 6265bis §5.6.7): stored and written back to a cookie file.
    ///
    /// A client with no browsing context makes every request "same-site" (§5.2: a request with
    /// no client), so the jar stores and sends cookies of every value; the one rule it applies
    /// is §5.7's: `SameSite=None` without `Secure` is refused.
    public struct SameSite: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// `Strict`.
        public static let strict = SameSite("Strict")
        /// `Lax`.
        public static let lax = SameSite("Lax")
        /// `None`: sent on cross-site requests too; only with `Secure`.
        public static let none = SameSite("None")
        /// No attribute, or an unknown value.
        public static let `default` = SameSite("Default")

        /// `Strict`, `Lax`, `None` or `Default`.
        public var description: String { name }

        /// The enforcement an attribute value names (case-insensitive), or ``default``.
        init(attributeValue: String) {
            switch attributeValue.lowercased() {
            case "none": self = .none
            case "strict": self = .strict
            case "lax": self = .lax
            default: self = .default
            }
        }
    }
}

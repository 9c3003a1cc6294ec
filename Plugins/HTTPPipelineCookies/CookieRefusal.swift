/// Why the jar refused a `Set-Cookie` (RFC 6265bis §5.6, §5.7): each reason names the rule.
public struct CookieRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    private let reason: String

    private init(_ reason: String) { self.reason = reason }

    /// A control character other than a tab (§5.6 step 1, §5.7 step 3).
    public static let controlCharacter = CookieRefusal("it holds a control character")
    /// Name and value longer than 4096 octets together (§5.6 step 5).
    public static let tooLarge = CookieRefusal("its name and value pass 4096 octets")
    /// Neither a name nor a value (§5.7 step 2).
    public static let empty = CookieRefusal("it has neither a name nor a value")
    /// A `Domain` with a character outside ASCII (§5.7 step 8).
    public static let nonASCIIDomain = CookieRefusal("its Domain is not ASCII")
    /// A `Domain` that is a public suffix other than the host itself (§5.7 step 9).
    public static let publicSuffix = CookieRefusal("its Domain is a public suffix")
    /// A `Domain` the request's host is not within (§5.7 step 10).
    public static let domainMismatch = CookieRefusal("its Domain does not match the host")
    /// A host that cannot be canonicalized (not ASCII, empty).
    public static let invalidHost = CookieRefusal("the host cannot be canonicalized")
    /// `Secure` from a connection that is not secure (§5.7 step 13).
    public static let secureFromInsecure = CookieRefusal("Secure from a connection that is not secure")
    /// A cookie from a connection that is not secure that would overlay a `Secure` one (§5.7
    /// step 16).
    public static let overlaysSecure = CookieRefusal("it would overlay a Secure cookie from a connection that is not")
    /// `SameSite=None` without `Secure` (§5.7 step 19).
    public static let sameSiteNoneWithoutSecure = CookieRefusal("SameSite=None without Secure")
    /// A `__Secure-` name without `Secure` (§5.7 step 20).
    public static let securePrefix = CookieRefusal("a __Secure- name without Secure")
    /// A `__Host-` name without `Secure`, with a `Domain`, or without `Path=/` (§5.7 step 21).
    public static let hostPrefix = CookieRefusal("a __Host- name without Secure, with a Domain, or without Path=/")
    /// A nameless cookie whose value starts with a prefix (§5.7 step 22).
    public static let prefixedNamelessValue = CookieRefusal(
        "a nameless cookie whose value starts with __Secure- or __Host-")

    /// The rule, in words.
    public var description: String { reason }
}

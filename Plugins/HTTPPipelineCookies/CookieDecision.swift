import Foundation

/// What the jar did with one `Set-Cookie` field: the cookie as stored, or why it was refused.
/// Its description names the cookie, never its value.
public struct CookieDecision: Sendable, Hashable, CustomStringConvertible {
    /// The cookie's name as the field gave it (empty for a nameless cookie or one refused before
    /// its name was read).
    public let name: String
    /// The cookie as stored; `nil` when refused.
    public let cookie: Cookie?
    /// Why it was refused; `nil` when stored.
    public let refusal: CookieRefusal?
    /// Whether a `Domain` cookie was kept host-only because no public suffix list was there to
    /// prove its domain is not one.
    public let keptHostOnlyWithoutSuffixList: Bool

    init(name: String, cookie: Cookie?, refusal: CookieRefusal?, keptHostOnlyWithoutSuffixList: Bool = false) {
        self.name = name
        self.cookie = cookie
        self.refusal = refusal
        self.keptHostOnlyWithoutSuffixList = keptHostOnlyWithoutSuffixList
    }

    /// Whether the cookie was stored (one already expired is stored and removed at once: that is
    /// how a server deletes a cookie).
    public var isStored: Bool { cookie != nil }

    public var description: String {
        let label = name.isEmpty ? "<nameless>" : name
        if let refusal { return "\(label): refused, \(refusal)" }
        return "\(label): stored\(keptHostOnlyWithoutSuffixList ? " host-only (no public suffix list)" : "")"
    }
}

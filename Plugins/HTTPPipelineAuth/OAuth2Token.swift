public import Foundation

/// What an OAuth 2.0 token endpoint issued (RFC 6749 §5.1): the access token, how long it lives,
/// the refresh token that renews it, and the scope granted.
///
/// `Codable`, so storage can keep it as it is (in the Keychain, a file, a database). Its
/// description never shows a token.
public struct OAuth2Token: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The access token, sent as `Authorization: Bearer <token>`.
    public var accessToken: String
    /// When the access token expires, if the endpoint said (`expires_in`).
    public var expiresAt: Date?
    /// The refresh token, if one was issued; `nil` for a client-credentials token.
    public var refreshToken: String?
    /// The scope granted, when the endpoint named it (`scope`); `nil` means as requested.
    public var scope: [String]?

    /// Creates a token, for example from a sign-in (an authorization-code exchange).
    ///
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - expiresAt: When it expires, if known.
    ///   - refreshToken: The refresh token, if any.
    ///   - scope: The scope granted, if named.
    public init(accessToken: String, expiresAt: Date? = nil, refreshToken: String? = nil, scope: [String]? = nil) {
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.scope = scope
    }

    /// The credential the auth middleware sends: the access token as a bearer token, with its
    /// expiry (so the middleware refreshes it ahead of time).
    public var credential: Credential { .bearer(accessToken, expiresAt: expiresAt) }

    public var description: String {
        let expiry = expiresAt.map { ", expires \($0)" } ?? ""
        let refresh = refreshToken == nil ? "" : ", refresh token: <redacted>"
        let scope = self.scope.map { ", scope: \($0.joined(separator: " "))" } ?? ""
        return "OAuth2Token(access token: <redacted>\(refresh)\(expiry)\(scope))"
    }
}

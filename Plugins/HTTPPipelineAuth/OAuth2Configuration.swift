public import Foundation

/// Which token endpoint an ``OAuth2TokenSource`` calls, as which client, for which grant.
public struct OAuth2Configuration: Sendable {
    /// How the source obtains a new access token.
    public enum Grant: Sendable, Hashable {
        /// The refresh-token grant (RFC 6749 §6): the stored refresh token is exchanged for a new
        /// access token, and for a new refresh token when the server rotates them.
        case refreshToken
        /// The client-credentials grant (RFC 6749 §4.4): the client authenticates as itself; no
        /// refresh token, no user.
        case clientCredentials
    }

    /// How the client authenticates to the token endpoint (RFC 6749 §2.3).
    public enum ClientAuthentication: Sendable, Hashable {
        /// `Authorization: Basic`, with the identifier and secret form-encoded first, as §2.3.1
        /// says (`client_secret_basic`).
        case basic(secret: String)
        /// `client_id` and `client_secret` in the form body (`client_secret_post`).
        case formFields(secret: String)
        /// A public client, which has no secret: `client_id` in the form body (§3.2.1).
        case none
    }

    /// The token endpoint. Calls to it are never redirected: a 3xx is an error.
    public var tokenEndpoint: URL
    /// The client identifier.
    public var clientID: String
    /// How the client authenticates.
    public var clientAuthentication: ClientAuthentication
    /// Which grant the source uses.
    public var grant: Grant
    /// The scope requested with every token call; empty sends none (the grant's scope stays).
    public var scope: [String]
    /// How long the token endpoint still accepts a refresh token it has just rotated (the
    /// "reuse interval" or "grace period" several servers offer for a lost answer); `nil` when it
    /// offers none, or you do not know. Within it, counted from when the lost call was sent, the
    /// source presents the same refresh token again; after it (or without one) it never does.
    /// Set it no longer than the server's.
    public var reuseGrace: Duration?
    /// The largest token response read; a longer one is an error. 64 KiB by default.
    public var maximumResponseBytes: Int

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - tokenEndpoint: The token endpoint's URL.
    ///   - clientID: The client identifier.
    ///   - clientAuthentication: How the client authenticates; a public client by default.
    ///   - grant: The grant; the refresh-token grant by default.
    ///   - scope: The scope to request; none by default.
    ///   - reuseGrace: The server's reuse grace period for a rotated refresh token, if it has one.
    ///   - maximumResponseBytes: The largest token response read.
    public init(
        tokenEndpoint: URL,
        clientID: String,
        clientAuthentication: ClientAuthentication = .none,
        grant: Grant = .refreshToken,
        scope: [String] = [],
        reuseGrace: Duration? = nil,
        maximumResponseBytes: Int = 64 << 10
    ) {
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.clientAuthentication = clientAuthentication
        self.grant = grant
        self.scope = scope
        self.reuseGrace = reuseGrace
        self.maximumResponseBytes = max(maximumResponseBytes, 1024)
    }
}

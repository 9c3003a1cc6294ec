public import Foundation

/// Which token endpoint an ``OAuth2TokenSource`` calls, as which client, for which grant.
public struct OAuth2Configuration: Sendable, CustomStringConvertible {
    /// How the source obtains a new access token. A struct, so a grant added later breaks no
    /// caller's `switch`.
    public struct Grant: Sendable, Hashable, CustomStringConvertible {
        enum Kind: Sendable, Hashable {
            case refreshToken, clientCredentials
        }

        let kind: Kind

        /// The refresh-token grant (RFC 6749 §6): the stored refresh token is exchanged for a new
        /// access token, and for a new refresh token when the server rotates them.
        public static let refreshToken = Grant(kind: .refreshToken)
        /// The client-credentials grant (RFC 6749 §4.4): the client authenticates as itself; no
        /// refresh token, no user.
        public static let clientCredentials = Grant(kind: .clientCredentials)

        public var description: String { kind == .refreshToken ? "refresh_token" : "client_credentials" }
    }

    /// How the client authenticates to the token endpoint (RFC 6749 §2.3). Its description never
    /// shows the secret.
    public struct ClientAuthentication: Sendable, Hashable, CustomStringConvertible {
        enum Kind: Sendable, Hashable {
            case basic(secret: String)
            case formFields(secret: String)
            case none
        }

        let kind: Kind

        /// `Authorization: Basic`, with the identifier and secret form-encoded first, as §2.3.1
        /// says (`client_secret_basic`).
        ///
        /// - Parameter secret: The client secret.
        /// - Returns: The authentication.
        public static func basic(secret: String) -> ClientAuthentication {
            ClientAuthentication(kind: .basic(secret: secret))
        }

        /// `client_id` and `client_secret` in the form body (`client_secret_post`).
        ///
        /// - Parameter secret: The client secret.
        /// - Returns: The authentication.
        public static func formFields(secret: String) -> ClientAuthentication {
            ClientAuthentication(kind: .formFields(secret: secret))
        }

        /// A public client, which has no secret: `client_id` in the form body (§3.2.1).
        public static let none = ClientAuthentication(kind: .none)

        public var description: String {
            switch kind {
            case .basic: "client_secret_basic (secret: <redacted>)"
            case .formFields: "client_secret_post (secret: <redacted>)"
            case .none: "none (public client)"
            }
        }
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

    public var description: String {
        "OAuth2Configuration(\(tokenEndpoint.absoluteString), client \(clientID), \(grant), authentication \(clientAuthentication))"
    }
}

/// Where an ``OAuth2TokenSource`` keeps its token between launches: the Keychain, a file, a
/// database. Implement it over yours; ``InMemoryOAuth2TokenStorage`` keeps nothing across
/// launches.
///
/// The source writes only through the auth middleware's storage order (one write at a time, a
/// rotated token saved before it is used), so an implementation needs no locking of its own
/// beyond being `Sendable`.
public protocol OAuth2TokenStorage: Sendable {
    /// The stored token, or `nil` when there is none (the user has not signed in).
    ///
    /// - Throws: When storage cannot be read.
    func load() async throws -> OAuth2Token?

    /// Replaces the stored token.
    ///
    /// - Parameter token: The token to keep.
    /// - Throws: When it cannot be written; the token is then not used.
    func save(_ token: OAuth2Token) async throws

    /// Deletes the stored token, on sign-out.
    ///
    /// - Throws: When it cannot be deleted; the sign-out then fails and nothing changes.
    func remove() async throws
}

/// Token storage in memory, for tests and for apps that sign in on every launch.
public actor InMemoryOAuth2TokenStorage: OAuth2TokenStorage {
    private var token: OAuth2Token?

    /// Creates storage holding `token`, if any.
    ///
    /// - Parameter token: What storage holds at first.
    public init(_ token: OAuth2Token? = nil) {
        self.token = token
    }

    public func load() -> OAuth2Token? { token }

    public func save(_ token: OAuth2Token) { self.token = token }

    public func remove() { token = nil }
}

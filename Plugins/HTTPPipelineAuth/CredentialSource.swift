/// Where the auth middleware gets credentials: implement it over your token storage and your
/// token endpoint.
///
/// The middleware calls ``refreshCredential(after:)`` once for all concurrent requests that
/// failed with the same credential, then ``persist(_:)`` once, before any of them is replayed,
/// so a rotated refresh token is saved before it can be used twice.
///
/// Store a new credential (and the refresh token that came with it) in ``persist(_:)``, not in
/// ``refreshCredential(after:)``: the middleware persists a refresh's result only while it is
/// still wanted (not after a sign-out or an account switch), and one write at a time, so storage
/// always holds the credential in use. When the token endpoint rejects the refresh token, drop
/// it and throw ``RefreshTokenRejected``: the middleware then asks for nothing until a new
/// credential is set. When the token call may have reached the server and its answer is lost (a
/// timeout, a connection lost after sending), throw ``RefreshOutcomeUnknown`` and never present
/// that refresh token again: a server that rotates may already have replaced it. For an OAuth 2.0
/// token endpoint, ``OAuth2TokenSource`` keeps these rules.
///
/// The refresh call usually goes through HTTP. Send it through a pipeline **without** the auth
/// middleware (for example the same transport with only logging and retry): a token request
/// routed through the auth middleware would wait on its own refresh.
public protocol CredentialSource: Sendable {
    /// The credential to use now, or `nil` when there is none yet (the middleware then refreshes).
    ///
    /// - Returns: The stored credential, if any.
    /// - Throws: When storage cannot be read; the request fails with
    ///   ``AuthError/refreshFailed(underlying:)``.
    func currentCredential() async throws -> Credential?

    /// Obtains a new credential, given the one that failed (`nil` when there was none, or when
    /// refreshing proactively before expiry it is the expiring one).
    ///
    /// - Parameter failed: The credential the server rejected or that is about to expire.
    /// - Returns: The new credential.
    /// - Throws: ``RefreshTokenRejected`` when the refresh token itself is no longer valid (the
    ///   user must sign in again); ``RefreshOutcomeUnknown`` when the answer was lost after the
    ///   refresh token was sent; anything else for a failure that a later attempt may not hit.
    func refreshCredential(after failed: Credential?) async throws -> Credential

    /// Saves a credential obtained by a refresh, before any request uses it.
    ///
    /// - Parameter credential: The new credential.
    /// - Throws: When it cannot be saved; the refresh then fails and the credential is not used.
    func persist(_ credential: Credential) async throws

    /// Deletes the stored credential, on sign-out (``AuthMiddleware/setCredential(_:)`` with `nil`).
    ///
    /// - Throws: When storage cannot be written; the sign-out then fails and nothing changes.
    func removeCredential() async throws
}

extension CredentialSource {
    /// Keeps nothing: for sources whose refresh already stored the credential.
    public func persist(_ credential: Credential) async throws {}

    /// Deletes nothing: for sources that keep nothing.
    public func removeCredential() async throws {}
}

/// What a ``CredentialSource`` throws when the token endpoint says the refresh token itself is
/// invalid: no retry can help, the user must authenticate again.
public struct RefreshTokenRejected: Error, Sendable, Equatable {
    /// Creates the error.
    public init() {}
}

/// What a ``CredentialSource`` throws when it does not know whether the token endpoint used the
/// refresh token it sent: the call timed out, or the connection was lost after the request went
/// out. A server that rotates refresh tokens may already have replaced it, and presenting it
/// again would look like token theft (reuse detection revokes every token of the family), so the
/// source must not send it again: the middleware reports
/// ``AuthError/refreshOutcomeUnknown(underlying:)`` and asks for nothing until a new credential
/// is set.
///
/// Throw it only after the request may have reached the server; a failure before sending (no
/// connection, the name did not resolve: `HTTPFailureClass.notSent`) is an ordinary failure, and
/// the same refresh token may be sent later. ``OAuth2TokenSource`` keeps these rules.
public struct RefreshOutcomeUnknown: Error, Sendable {
    /// What the token call failed with.
    public let underlying: any Error

    /// Creates the error.
    ///
    /// - Parameter underlying: What the token call failed with.
    public init(underlying: any Error) {
        self.underlying = underlying
    }
}

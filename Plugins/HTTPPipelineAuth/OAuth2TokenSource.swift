public import Foundation
public import HTTPPipeline

/// A ready-made ``CredentialSource`` for an OAuth 2.0 token endpoint (RFC 6749): the
/// refresh-token grant with rotation, or the client-credentials grant; client authentication by
/// HTTP Basic or by form fields; error responses read into ``OAuth2Error``.
///
/// ```swift
/// import Foundation
/// import HTTPPipeline
/// import HTTPPipelineAuth
///
/// let tokens = OAuth2TokenSource(
///     configuration: OAuth2Configuration(
///         tokenEndpoint: URL(string: "https://auth.example.com/oauth/token")!,
///         clientID: "catalog-ios",
///         reuseGrace: .seconds(30)   // the server's reuse interval, if it has one
///     ),
///     tokenPipeline: URLSessionTransport()   // or a pipeline of its own, without auth
/// )
/// let auth = AuthMiddleware(source: tokens)
/// // After the user signs in (an authorization-code exchange of your app's):
/// try await tokens.signIn(with: OAuth2Token(accessToken: "…", refreshToken: "…"), on: auth)
/// ```
///
/// Its rules, which a custom ``CredentialSource`` should keep too:
/// - **A rotated token is stored before it is used.** A refresh's answer is kept aside until
///   the middleware calls ``persist(_:)``, which saves it to ``OAuth2TokenStorage`` and only then
///   lets requests use it; storage always holds the credential in use.
/// - **Refused is not unknown.** `invalid_grant` means the server refused the refresh token: it
///   is dropped and the user must sign in again (``AuthError/reauthenticationRequired``). A
///   timeout, a connection lost after the request was sent, a gateway's 502 or 504, or a 200
///   whose body cannot be read mean the outcome is unknown: the server may have rotated the
///   token already.
/// - **A refresh token whose outcome is unknown is never presented again**, unless
///   ``OAuth2Configuration/reuseGrace`` says the server still accepts it: within the grace
///   (counted from when the first call with it was sent) the same call is made again, at most
///   three more times; otherwise the refresh fails with ``RefreshOutcomeUnknown``, which the
///   middleware reports as ``AuthError/refreshOutcomeUnknown(underlying:)`` (sign in again). A
///   failure before anything was sent (`HTTPFailureClass.notSent`) is an ordinary failure: the
///   same token may be sent by a later refresh.
/// - **Its calls go through `tokenPipeline`**, a pipeline of your own. Put a deadline, logging
///   and retry in it if you like, with three rules: no auth middleware (a token call would wait
///   on its own refresh), no redirect layer (a token call carries the refresh token and the
///   client secret, and the source treats a 3xx as an error anyway), and retry only of failures
///   before sending (`RetryPolicy.default` retries a POST only then). The source makes its own
///   second call within a reuse grace; the pipeline must never make one.
///
/// The mark "outcome unknown" is kept in memory: storage is written only by the middleware's
/// ordered writes. Use one source per ``AuthMiddleware``.
public actor OAuth2TokenSource: CredentialSource {
    /// The token endpoint, the client and the grant.
    public nonisolated let configuration: OAuth2Configuration
    let tokenPipeline: any HTTPTransport
    /// Where the token is kept.
    public nonisolated let storage: any OAuth2TokenStorage
    let timeline: Timeline
    let now: @Sendable () -> Date

    private var loaded = false
    /// What storage holds, as far as this source wrote or read it.
    private var stored: OAuth2Token?
    /// The refresh token the next refresh presents: the stored one, or the newer one a refresh
    /// obtained (the one it presented is spent) that is not stored yet.
    private var refreshToken: String?
    /// A refresh token whose last call has an unknown outcome: when it was first sent, and why.
    private var inDoubt: (token: String, firstSent: Duration, error: any Error)?
    /// Tokens obtained (or signed in with) that wait for ``persist(_:)``, newest last.
    private var staged: [OAuth2Token] = []
    /// Bumped by every write to storage: a refresh that began before one leaves memory alone.
    private var generation = 0

    /// Creates a source.
    ///
    /// - Parameters:
    ///   - configuration: The token endpoint, the client and the grant.
    ///   - tokenPipeline: What token calls are sent through: a pipeline without auth and
    ///     without a redirect layer (see above), or a bare transport.
    ///   - storage: Where the token is kept; in memory by default.
    ///   - clock: The clock the reuse grace is measured on.
    ///   - now: The wall clock `expires_in` counts from.
    public init(
        configuration: OAuth2Configuration,
        tokenPipeline: some HTTPTransport,
        storage: some OAuth2TokenStorage = InMemoryOAuth2TokenStorage(),
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.tokenPipeline = tokenPipeline
        self.storage = storage
        self.timeline = Timeline(clock)
        self.now = now
    }

    /// Signs in with a token your app obtained (an authorization-code exchange, a device flow):
    /// the middleware stores it through ``persist(_:)``, with its refresh token, and uses it from
    /// now on, as ``AuthMiddleware/setCredential(_:)`` describes.
    ///
    /// A bare `auth.setCredential(.bearer(…))` stores the access token alone: no refresh token.
    ///
    /// - Parameters:
    ///   - token: The token issued at sign-in.
    ///   - auth: The middleware this source serves.
    /// - Throws: What ``AuthMiddleware/setCredential(_:)`` throws.
    public func signIn(with token: OAuth2Token, on auth: AuthMiddleware) async throws {
        stage(token)
        do {
            try await auth.setCredential(token.credential)
        } catch {
            staged.removeAll { $0 == token }
            throw error
        }
    }

    public func currentCredential() async throws -> Credential? {
        try await loadIfNeeded()
        return stored?.credential
    }

    /// Obtains a new access token with the configured grant; see the rules above.
    ///
    /// - Parameter failed: The credential that failed; unused (the grant decides).
    /// - Returns: The new token's credential; the token waits for ``persist(_:)``.
    /// - Throws: ``OAuth2Error``, ``RefreshOutcomeUnknown``, or what the token pipeline threw
    ///   before sending. ``OAuth2Error/isSuperseded`` when `failed` is no longer the stored
    ///   credential (a sign-in or sign-out came first): nothing is sent.
    public func refreshCredential(after failed: Credential?) async throws -> Credential {
        try await loadIfNeeded()
        let token: OAuth2Token
        switch configuration.grant.kind {
        case .clientCredentials:
            do {
                token = try await exchange([("grant_type", "client_credentials")] + scopeField)
            } catch {
                // No refresh token is at stake: every failure is an ordinary one.
                throw error.underlying
            }
        case .refreshToken:
            // A refresh asked for under an identity that a sign-in or sign-out has replaced since
            // (its task ran late) must not spend the new identity's refresh token.
            if let failed, failed.token != stored?.accessToken { throw OAuth2Error.superseded }
            token = try await refresh()
        }
        stage(token)
        return token.credential
    }

    /// Saves the token a refresh (or ``signIn(with:on:)``) obtained for `credential`, then makes
    /// it the one this source refreshes from. A credential set without a token (a bare
    /// `setCredential`) is stored alone, without a refresh token.
    public func persist(_ credential: Credential) async throws {
        let token =
            staged.last { $0.accessToken == credential.token }
            ?? OAuth2Token(accessToken: credential.token, expiresAt: credential.expiresAt)
        try await storage.save(token)
        staged.removeAll { $0.accessToken == credential.token }
        generation += 1
        loaded = true
        stored = token
        refreshToken = token.refreshToken
        if inDoubt?.token != refreshToken { inDoubt = nil }
    }

    /// Deletes the stored token and forgets every refresh token, on sign-out.
    public func removeCredential() async throws {
        try await storage.remove()
        generation += 1
        loaded = true
        stored = nil
        refreshToken = nil
        inDoubt = nil
        staged.removeAll()
    }

    private func stage(_ token: OAuth2Token) {
        staged.append(token)
        if staged.count > 4 { staged.removeFirst() }
    }

    private func loadIfNeeded() async throws {
        guard !loaded else { return }
        let token = try await storage.load()
        // A write while storage was read is newer than what was read.
        guard !loaded else { return }
        loaded = true
        stored = token
        refreshToken = token?.refreshToken
    }

    private var scopeField: [(String, String)] {
        configuration.scope.isEmpty ? [] : [("scope", configuration.scope.joined(separator: " "))]
    }

    /// The refresh-token grant: presents the refresh token once, or again within the reuse
    /// grace after an unknown outcome; never otherwise.
    private func refresh() async throws -> OAuth2Token {
        let generation = self.generation
        guard let presented = refreshToken else { throw OAuth2Error.noRefreshToken }
        // When the first call with this refresh token went out: the grace counts from there.
        var firstSent = timeline.elapsed
        if let inDoubt, inDoubt.token == presented {
            guard isWithinGrace(since: inDoubt.firstSent) else {
                throw RefreshOutcomeUnknown(underlying: inDoubt.error)
            }
            firstSent = inDoubt.firstSent
        }
        var calls = 0
        while true {
            calls += 1
            do {
                var token = try await exchange(
                    [("grant_type", "refresh_token"), ("refresh_token", presented)] + scopeField)
                // RFC 6749 §6: without a new refresh token, the one presented stays valid.
                token.refreshToken = token.refreshToken ?? presented
                if generation == self.generation {
                    if refreshToken == presented { refreshToken = token.refreshToken }
                    if inDoubt?.token == presented { inDoubt = nil }
                }
                return token
            } catch .refused(let error) {
                if error.requiresSignIn, generation == self.generation, refreshToken == presented {
                    refreshToken = nil
                    inDoubt = nil
                }
                throw error
            } catch .notSent(let error), .failed(let error) {
                throw error
            } catch .unknown(let error) {
                if generation == self.generation, refreshToken == presented {
                    inDoubt = (presented, firstSent, error)
                }
                guard calls < 4, generation == self.generation, isWithinGrace(since: firstSent) else {
                    throw RefreshOutcomeUnknown(underlying: error)
                }
            }
        }
    }

    private func isWithinGrace(since firstSent: Duration) -> Bool {
        guard let grace = configuration.reuseGrace else { return false }
        return timeline.elapsed - firstSent < grace
    }
}

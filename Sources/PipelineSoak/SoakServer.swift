import HTTPPipeline
import HTTPPipelineAuth

/// The server side of a soak run: which token is valid, how often it was revoked, and how often
/// the client refreshed it. Shared by the transport (which checks and revokes) and the credential
/// source (which refreshes).
package final class SoakServer: Sendable {
    private struct State {
        /// The token the server accepts, or `nil` after a revocation and before the next refresh.
        var validToken: String?
        /// The token the client holds.
        var clientToken: String
        var minted = 0
        var revocations = 0
        var refreshes = 0
    }

    /// Every token starts with this, so a log line holding one is easy to find.
    package static let secretPrefix = "soak-secret-token-"

    private let state: Locked<State>

    package init() {
        let first = Self.secretPrefix + "0"
        state = Locked(State(validToken: first, clientToken: first))
    }

    /// Times the valid token was revoked.
    package var revocations: Int { state.withLock { $0.revocations } }
    /// Times the client refreshed.
    package var refreshes: Int { state.withLock { $0.refreshes } }
    /// Whether the last revocation has not been followed by a refresh yet.
    package var isRevoked: Bool { state.withLock { $0.validToken == nil } }

    /// Whether `token` is the one the server accepts.
    func accepts(_ token: String?) -> Bool {
        state.withLock { $0.validToken != nil && $0.validToken == token }
    }

    /// Revokes `token` if it is the valid one; returns whether it was.
    func revoke(_ token: String?) -> Bool {
        state.withLock { state in
            guard state.validToken != nil, state.validToken == token else { return false }
            state.validToken = nil
            state.revocations += 1
            return true
        }
    }

    var clientToken: String { state.withLock { $0.clientToken } }

    /// The token endpoint: mints a new token, which the server accepts from now on.
    func refresh() -> String {
        state.withLock { state in
            state.minted += 1
            state.refreshes += 1
            let token = Self.secretPrefix + String(state.minted)
            state.validToken = token
            state.clientToken = token
            return token
        }
    }
}

/// The client's credential store in a soak run: the token it holds, and a refresh that asks the
/// ``SoakServer`` for a new one.
struct SoakCredentials: CredentialSource {
    let server: SoakServer

    func currentCredential() async throws -> Credential? { .bearer(server.clientToken) }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        // A refresh its last waiter abandoned must not mint a token the store will never use.
        try Task.checkCancellation()
        return .bearer(server.refresh())
    }

    func persist(_ credential: Credential) async throws {}
}

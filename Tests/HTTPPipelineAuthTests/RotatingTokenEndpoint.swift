import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting

/// A token endpoint as the OAuth 2.0 Security BCP recommends: every refresh rotates the refresh
/// token, and a refresh token used twice revokes the whole family (every access and refresh
/// token it issued), logging the user out.
final class RotatingTokenEndpoint: Sendable {
    struct State: Sendable {
        var validRefresh: String?
        var spentRefresh: Set<String> = []
        var validAccess: String?
        var issued = 0
        var exchanges: [String] = []
        var reuseDetected = 0
    }
    let state: Locked<State>

    /// - Parameters:
    ///   - refresh: The refresh token the client holds.
    ///   - access: The access token the API accepts now (`nil`: the client's has expired).
    init(refresh: String, access: String?) {
        state = Locked(State(validRefresh: refresh, validAccess: access))
    }

    /// Exchanges a refresh token for a new access and refresh token, at once.
    func exchange(_ refresh: String) throws -> (access: String, refresh: String) {
        try state.withLock { state in
            state.exchanges.append(refresh)
            if refresh == state.validRefresh {
                state.issued += 1
                state.spentRefresh.insert(refresh)
                let pair = (access: "access-\(state.issued)", refresh: "refresh-\(state.issued)")
                state.validRefresh = pair.refresh
                state.validAccess = pair.access
                return pair
            }
            if state.spentRefresh.contains(refresh) {
                state.reuseDetected += 1
                state.validRefresh = nil
                state.validAccess = nil
            }
            throw RefreshTokenRejected()
        }
    }

    /// An API transport that accepts only the endpoint's current access token.
    func api() -> ScriptedTransport {
        ScriptedTransport { [state] request in
            let header = request.fields["Authorization"]
            let valid = state.withLock { $0.validAccess }
            return valid.map { header == "Bearer \($0)" } == true ? .ok("hello") : .status(401)
        }
    }
}

/// A credential source with its own storage (access and refresh token) over a rotating
/// endpoint. The endpoint's answer takes `latency` on the clock and, like many HTTP clients,
/// the call ignores cancellation. A new pair is stored only in `persist`.
final class RotatingSource: CredentialSource {
    struct Storage: Sendable, Equatable {
        var access: String?
        var refresh: String?
    }
    let endpoint: RotatingTokenEndpoint
    let clock: ManualClock
    let latency: Duration
    let storage: Locked<Storage>
    let pending = Locked<[String: String]>([:])
    let persisted = Locked<[String]>([])

    init(endpoint: RotatingTokenEndpoint, clock: ManualClock, latency: Duration, storage: Storage) {
        self.endpoint = endpoint
        self.clock = clock
        self.latency = latency
        self.storage = Locked(storage)
    }

    func currentCredential() async throws -> Credential? {
        storage.value.access.map { .bearer($0) }
    }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        guard let refresh = storage.value.refresh else { throw RefreshTokenRejected() }
        let answer = Result { try endpoint.exchange(refresh) }
        let clock = self.clock
        let latency = self.latency
        await Task { try? await clock.sleep(for: latency) }.value  // not cancelled with the caller
        let pair = try answer.get()
        pending.withLock { $0[pair.access] = pair.refresh }
        return .bearer(pair.access)
    }

    func persist(_ credential: Credential) async throws {
        let refresh = pending.withLock { $0.removeValue(forKey: credential.token) }
        storage.withLock { $0 = Storage(access: credential.token, refresh: refresh) }
        persisted.withLock { $0.append(credential.token) }
    }
}

import HTTPPipeline
import HTTPPipelineAuth

/// The server side of a soak run, and the client's token storage: which access token each
/// account's API accepts, the refresh tokens the token endpoint rotates (a refresh token used
/// twice is counted as reuse, which a real server punishes by logging the user out), and what the
/// client's storage holds. Shared by the transport (which checks and revokes) and the credential
/// source (which refreshes and persists).
///
/// It also watches two invariants as they happen: storage never holds an older credential than
/// one in use, and no request is replayed under another account than the one it was sent as.
package final class SoakServer: Sendable {
    /// A token's account and generation, parsed from its text.
    struct Minted: Equatable {
        let account: Int
        let generation: Int
    }

    private struct State {
        var account = 0
        /// Per account: the access token its API accepts (`nil` after a revocation), the refresh
        /// token the endpoint accepts, how many tokens it minted, revocations and refreshes.
        var validAccess: [Int: String] = [:]
        var validRefresh: [Int: String] = [:]
        var minted: [Int: Int] = [:]
        var revocations: [Int: Int] = [:]
        var refreshes: [Int: Int] = [:]
        /// Per account: the refresh token rotated last, and when (for the reuse grace).
        var previousRefresh: [Int: (token: String, at: ContinuousClock.Instant)] = [:]
        var refreshTokenReuses = 0
        var graceReuses = 0
        var tokenCalls = 0
        var answersLost = 0
        /// The client's storage.
        var storedAccess: String?
        var storedRefresh: String?
        /// Per request id: the attempt and account of the last token seen, packed.
        var seen: [UInt16]
        var replaysUnderAnotherIdentity = 0
        var credentialsInUseNotStored = 0
        var storageRegressions = 0
        /// The credential the check request after the run carried.
        var checked: String?
    }

    /// Every token starts with this, so a log line holding one is easy to find.
    package static let secretPrefix = "soak-secret-token-"

    private let state: Locked<State>
    /// How long a rotated refresh token is still accepted.
    private let grace: Duration?

    /// - Parameters:
    ///   - requests: How many request ids the run uses (for the per-request record).
    ///   - grace: The token endpoint's reuse grace, if any.
    package init(requests: Int, grace: Duration?) {
        state = Locked(State(seen: Array(repeating: 0, count: max(requests, 0))))
        self.grace = grace
        let (access, refresh) = signIn()
        state.withLock { state in
            state.storedAccess = access
            state.storedRefresh = refresh
        }
    }

    /// Creates a new account on the server, with a valid access and refresh token, and makes it
    /// the one the run switches to. Returns its tokens.
    @discardableResult
    func signIn() -> (access: String, refresh: String) {
        state.withLock { state in
            state.account += 1
            let account = state.account
            let access = Self.secretPrefix + "a\(account)-0"
            let refresh = "refresh-a\(account)-0"
            state.minted[account] = 0
            state.validAccess[account] = access
            state.validRefresh[account] = refresh
            return (access, refresh)
        }
    }

    /// Times a valid token was revoked, over every account.
    package var revocations: Int { state.withLock { $0.revocations.values.reduce(0, +) } }
    /// Times the client refreshed, over every account.
    package var refreshes: Int { state.withLock { $0.refreshes.values.reduce(0, +) } }
    /// Accounts the run signed in to.
    package var accounts: Int { state.withLock { $0.account } }
    /// Token answers lost after rotating.
    package var answersLost: Int { state.withLock { $0.answersLost } }
    /// Refresh tokens presented again within the grace.
    package var graceReuses: Int { state.withLock { $0.graceReuses } }

    /// The broken invariants this server saw, in words.
    package var violations: [String] {
        state.withLock { state in
            var violations: [String] = []
            if state.refreshTokenReuses > 0 {
                violations.append(
                    "a refresh token was presented after it was rotated \(state.refreshTokenReuses) times (reuse)")
            }
            if state.replaysUnderAnotherIdentity > 0 {
                violations.append("\(state.replaysUnderAnotherIdentity) requests were replayed under another identity")
            }
            if state.credentialsInUseNotStored > 0 {
                violations.append("\(state.credentialsInUseNotStored) requests carried a credential newer than storage")
            }
            if state.storageRegressions > 0 {
                violations.append("storage was overwritten with an older credential \(state.storageRegressions) times")
            }
            for account in 1...max(state.account, 1) {
                let revoked = state.revocations[account, default: 0]
                let refreshed = state.refreshes[account, default: 0]
                let pending = state.validAccess[account] == nil ? 1 : 0
                // The current account refreshes once per revocation but a last one not met yet;
                // an earlier one may also have left its last revocation to the switch.
                let fewest = revoked - pending - (account == state.account ? 0 : 1)
                if refreshed > revoked || refreshed < fewest {
                    violations.append("account \(account): \(refreshed) refreshes for \(revoked) revocations")
                }
            }
            return violations
        }
    }

    /// Records the credential the check request after the run carried.
    func checked(_ token: String?) {
        state.withLock { $0.checked = token }
    }

    /// Whether the check request carried what storage holds: the credential in use is stored.
    package var storageHoldsTheCredentialInUse: Bool {
        state.withLock { $0.checked != nil && $0.checked == $0.storedAccess }
    }

    /// What storage holds now.
    var storedAccess: String? { state.withLock { $0.storedAccess } }

    /// Whether `token` is the one its account accepts. Also checks that storage holds it (or a
    /// newer one of the account), and that request `id`'s attempt was not sent before under
    /// another account.
    func accepts(_ token: String?, id: Int?, attempt: Int) -> Bool {
        guard let token, let minted = Self.parse(token) else { return false }
        return state.withLock { state in
            if let stored = state.storedAccess.flatMap(Self.parse), stored.account == minted.account,
                stored.generation < minted.generation
            {
                state.credentialsInUseNotStored += 1
            }
            if let id, state.seen.indices.contains(id) {
                let packed = UInt16(truncatingIfNeeded: attempt) << 8 | UInt16(truncatingIfNeeded: minted.account)
                let previous = state.seen[id]
                if previous != 0, previous >> 8 == packed >> 8, previous != packed {
                    state.replaysUnderAnotherIdentity += 1
                }
                state.seen[id] = packed
            }
            return state.validAccess[minted.account] == token
        }
    }

    /// Revokes `token` if it is the valid one of its account; returns whether it was.
    func revoke(_ token: String?) -> Bool {
        guard let token, let minted = Self.parse(token) else { return false }
        return state.withLock { state in
            guard state.validAccess[minted.account] == token else { return false }
            state.validAccess[minted.account] = nil
            state.revocations[minted.account, default: 0] += 1
            return true
        }
    }

    /// What the token endpoint answers a refresh with.
    enum TokenAnswer {
        /// A new pair; `lost` when the answer never reaches the client.
        case issued(access: String, refresh: String, lost: Bool)
        /// `invalid_grant`.
        case refused
    }

    /// The token endpoint: exchanges `presented` for a new access and refresh token of its
    /// account, at once. A refresh token rotated before is accepted again within the grace (the
    /// same refresh, asked for again); outside it, it is reuse: the account's family is revoked,
    /// which logs the user out. Every `loseEvery`-th call's answer is lost after rotating.
    func refresh(presenting presented: String, loseEvery: Int) -> TokenAnswer {
        let now = ContinuousClock.now
        return state.withLock { state in
            state.tokenCalls += 1
            guard let account = Self.account(ofRefresh: presented) else { return .refused }
            if state.validRefresh[account] == presented {
                state.refreshes[account, default: 0] += 1
                state.previousRefresh[account] = (presented, now)
            } else if let previous = state.previousRefresh[account], previous.token == presented, let grace,
                previous.at.duration(to: now) < grace, state.validRefresh[account] != nil
            {
                state.graceReuses += 1
            } else {
                state.refreshTokenReuses += 1
                state.validRefresh[account] = nil
                state.validAccess[account] = nil
                return .refused
            }
            let generation = state.minted[account, default: 0] + 1
            state.minted[account] = generation
            let access = Self.secretPrefix + "a\(account)-\(generation)"
            let next = "refresh-a\(account)-\(generation)"
            state.validAccess[account] = access
            state.validRefresh[account] = next
            let lost = loseEvery > 0 && state.tokenCalls % loseEvery == 0
            if lost { state.answersLost += 1 }
            return .issued(access: access, refresh: next, lost: lost)
        }
    }

    /// What the client's storage holds.
    var stored: (access: String?, refresh: String?) { state.withLock { ($0.storedAccess, $0.storedRefresh) } }

    /// The client's storage: keeps `access` with its refresh token.
    func store(_ access: String?, refresh: String?) {
        state.withLock { state in
            if let new = access.flatMap(Self.parse), let old = state.storedAccess.flatMap(Self.parse),
                new.account == old.account, new.generation < old.generation
            {
                state.storageRegressions += 1
            }
            state.storedAccess = access
            state.storedRefresh = refresh
        }
    }

    static func parse(_ token: String) -> Minted? {
        guard token.hasPrefix(secretPrefix) else { return nil }
        let parts = token.dropFirst(secretPrefix.count).dropFirst().split(separator: "-")
        guard parts.count == 2, let account = Int(parts[0]), let generation = Int(parts[1]) else { return nil }
        return Minted(account: account, generation: generation)
    }

    private static func account(ofRefresh token: String) -> Int? {
        let parts = token.dropFirst("refresh-a".count).split(separator: "-")
        return parts.first.flatMap { Int($0) }
    }
}

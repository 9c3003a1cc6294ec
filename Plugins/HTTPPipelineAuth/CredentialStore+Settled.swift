import Foundation
import HTTPPipeline

/// The lease of a settled credential store, readable without entering the actor.
///
/// Entering and leaving the store's actor costs every request two executor switches (about 2,200
/// instructions, callgrind). When nothing is under way — no sign-in, refresh or storage write —
/// the store publishes the lease it just gave, and the next requests take it under a lock until
/// the credential reaches its proactive refresh time.
///
/// Why this gives the same answers as the actor: the store publishes only from inside
/// `lease(unless:)`, in one synchronous stretch with the checks that made the lease, and every
/// change to the state a lease depends on (credential, identity, refresh epoch, sign-in, refresh
/// or storage write under way) withdraws it in that change's own `didSet`, before any other
/// request can run on the actor. So a request that reads a published lease reads one the actor
/// would have given at that moment; from the first change on, requests go through the actor
/// again. (Publishing on every change, as tried before, also published the states in between
/// two changes, such as a new identity before its credential, and failed the soak's account
/// switches.)
final class SettledLease: Sendable {
    /// A class, so reading it under the lock copies one reference.
    private final class Published: Sendable {
        let lease: CredentialStore.Lease
        /// When the proactive refresh window starts; `nil` for a credential without expiry.
        let refreshFrom: Date?

        init(lease: CredentialStore.Lease, refreshFrom: Date?) {
            self.lease = lease
            self.refreshFrom = refreshFrom
        }
    }

    private let state = Locked<Published?>(nil)

    /// Makes `lease` the one requests take, until `refreshFrom` or the next withdrawal.
    func publish(_ lease: CredentialStore.Lease, refreshFrom: Date?) {
        state.withLock { $0 = Published(lease: lease, refreshFrom: refreshFrom) }
    }

    /// Takes the published lease back: something it depends on changed.
    func withdraw() {
        state.withLock { $0 = nil }
    }

    /// The published lease, if there is one and `now` is before its refresh window.
    func lease(now: () -> Date) -> CredentialStore.Lease? {
        guard let published = state.withLock({ $0 }) else { return nil }
        if let refreshFrom = published.refreshFrom, now() >= refreshFrom { return nil }
        return published.lease
    }
}

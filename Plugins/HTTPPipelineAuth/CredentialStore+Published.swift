import Foundation
import HTTPPipeline

/// The usual request's lease without a hop onto the actor: the lease
/// ``CredentialStore/lease(unless:)`` would hand out at that moment, published by the actor and
/// read under a lock.
///
/// The actor publishes a lease only where ``CredentialStore/lease(unless:)`` hands out the current
/// credential with nothing else to do (loaded, no sign-in under way, outside the proactive
/// window; never when the source is read on every request), together with the instant the
/// proactive window begins. Every change to the state that lease was derived from (the
/// credential, when it was issued, the identity, loading, a sign-in, a completed refresh)
/// withdraws it before anything else runs on the actor. A request that takes it took what the
/// actor would have given it at that instant, as if it had entered the actor just before the
/// change; every other request goes through the actor as before.
extension CredentialStore {
    /// The published lease while it is fresh; `nil` means: ask the actor.
    nonisolated func publishedLease() -> Lease? {
        guard let (lease, freshUntil) = published.withLock({ $0 }) else { return nil }
        if let freshUntil, now() >= freshUntil { return nil }
        return lease
    }

    /// Publishes `lease`, to be handed out until `freshUntil` (always when `nil`), unless the
    /// source is read on every request; returns it.
    func publish(_ lease: Lease, freshUntil: Date?) -> Lease {
        if !options.readsSourceOnEveryRequest {
            published.withLock { $0 = (lease, freshUntil) }
        }
        return lease
    }

    /// Withdraws the published lease: the state it was derived from changed.
    func withdrawPublishedLease() {
        published.withLock { $0 = nil }
    }
}

import Foundation
import HTTPPipeline

/// The one place that holds the credential in use, its identity, and the refresh in flight.
///
/// - **Identity**: every credential set from outside a refresh (``AuthMiddleware/setCredential(_:)``,
///   or a different one read from the source) starts a new identity. A request remembers the
///   identity it was authorised under, and a 401 to it is never answered with another identity's
///   credential.
/// - **Storage order**: every write to the source (a refresh's `persist`, a sign-in's `persist`,
///   a sign-out's `removeCredential`) runs one at a time, and the credential it wrote is adopted
///   before the next write starts, so storage always holds the credential in use (or the one
///   about to be), never an older one.
/// - **Refreshes** (in `CredentialStore+Refresh.swift`): one at a time per identity, never
///   abandoned, each waiter bounded by the refresh timeout.
actor CredentialStore {
    let source: any CredentialSource
    let options: AuthOptions
    let timeline: Timeline
    let now: @Sendable () -> Date

    /// What a request was authorised with: the credential, its identity, and how many refreshes
    /// had completed (the request's epoch). A class, so that handing one out (and the published
    /// one to every request) copies a reference, not the credential.
    final class Lease: Sendable {
        let credential: Credential
        let identity: Int
        let epoch: Int

        init(credential: Credential, identity: Int, epoch: Int) {
            self.credential = credential
            self.identity = identity
            self.epoch = epoch
        }
    }

    var current: Credential? { didSet { withdrawPublishedLease() } }
    /// When `current` was issued, as far as this store knows: when a refresh or a sign-in gave
    /// it. `nil` for a credential read from the source, whose age is unknown.
    var currentIssuedAt: Date? { didSet { withdrawPublishedLease() } }
    var loaded = false { didSet { withdrawPublishedLease() } }
    var identity = 0 { didSet { withdrawPublishedLease() } }
    /// Bumped on every change of `current`, so a read of the source that overlapped a change
    /// is recognised as stale.
    var version = 0
    /// The refresh token was rejected, or the user signed out: no refresh until a new
    /// credential is set.
    var needsSignIn = false
    /// Whether sign-in is needed because the user signed out, not because a refresh token was
    /// rejected: the error says which.
    var signedOut = false
    /// The error that made sign-in needed, repeated to every later request until a new
    /// credential is set (`nil` after a sign-out).
    var signInError: AuthError?
    /// The credential whose refresh token was rejected, until another is set.
    var deadCredential: Credential?
    /// A credential set from outside is being written to the source: requests wait.
    private var switching = false { didSet { withdrawPublishedLease() } }
    private var switchWaiters: [CheckedContinuation<Void, Never>] = []

    // Refresh state, used by CredentialStore+Refresh.swift.
    var flight: Flight?
    var flights = 0
    var waiters: [UUID: Waiter] = [:]
    var outcomes: [Int: Result<Credential?, any Error>] = [:]
    /// Refreshes completed: a lease's epoch.
    var completed = 0 { didSet { withdrawPublishedLease() } }
    var lastCompletion: Result<Credential, any Error>?
    var refreshTimes: [Duration] = []
    var lastFailure: (at: Duration, error: any Error)?
    var lastProactiveFailure: Duration?
    var timer: Task<Void, Never>?
    var timerGeneration = 0

    // Storage writes, one at a time.
    private(set) var storageBusy = false
    private var storageQueue: [CheckedContinuation<Void, Never>] = []

    /// The lease a request may take without entering the actor (`CredentialStore+Published.swift`):
    /// set by ``lease(unless:)`` when it hands out the current credential, withdrawn by any change
    /// to what that lease was derived from (the `didSet`s above).
    nonisolated let published = Locked<(lease: Lease, freshUntil: Date?)?>(nil)

    init(source: any CredentialSource, options: AuthOptions, timeline: Timeline, now: @escaping @Sendable () -> Date) {
        self.source = source
        self.options = options
        self.timeline = timeline
        self.now = now
    }

    /// The credential to send now, with its identity and epoch.
    ///
    /// Loads from the source the first time (or every time, with
    /// ``AuthOptions/readsSourceOnEveryRequest``). A credential that has expired is refreshed
    /// first; one inside the proactive window is sent as it is while a refresh starts in the
    /// background, so a token endpoint outage fails nothing until the credential really expires.
    ///
    /// - Parameter carries: Whether the request already carries a header of this name; such a
    ///   request gets `nil` (it passes through untouched), before any refresh or failure.
    func lease(unless carries: @Sendable (String) -> Bool) async throws -> Lease? {
        while true {
            // Checked here first: the usual request (no sign-in under way, credential loaded) makes
            // no further async call.
            if switching { await waitWhileSwitching() }
            if needsLoad { try await load() }
            // A sign-in that began while the source was read: wait for it, then start again.
            if switching { continue }
            if carries(current?.headerName ?? "Authorization") { return nil }
            let identity = self.identity
            if let current {
                guard let expiry = current.expiresAt else {
                    return publish(Lease(credential: current, identity: identity, epoch: completed), freshUntil: nil)
                }
                let remaining = expiry.timeIntervalSince(now())
                if remaining > 0 {
                    let lease = Lease(credential: current, identity: identity, epoch: completed)
                    let window = proactiveWindow(until: expiry)
                    guard remaining <= window else {
                        // Never past the expiry, whatever the window (a negative one can be set
                        // after `AuthOptions.init`, which clamps only its own argument).
                        return publish(lease, freshUntil: expiry.addingTimeInterval(-max(window, 0)))
                    }
                    startProactiveRefresh(of: current, expiry: expiry)
                    return lease
                }
            }
            let epoch = completed
            if let fresh = try await refreshed(after: current, identity: identity, epoch: epoch) {
                return Lease(credential: fresh, identity: identity, epoch: completed)
            }
            // The identity changed while this request waited: start again with the new one.
        }
    }

    /// Sets the credential from outside a refresh: sign-in, account switch (a credential) or
    /// sign-out (`nil`). Requests wait while the credential is written to the source; once it is
    /// written, a new identity starts (requests of the old one are no longer replayed) and they
    /// use it. A write that fails changes nothing.
    func replace(with credential: Credential?) async throws {
        if let credential { try credential.validate() }
        await acquireStorage()
        defer { releaseStorage() }
        // Requests wait from now on; the identity changes only once the write succeeded, so a
        // failed write changes nothing (a refresh ending meanwhile queues behind storage).
        switching = true
        defer { endSwitch() }
        if let credential {
            try await source.persist(credential)
        } else {
            try await source.removeCredential()
        }
        beginIdentity()
        adoptIdentity(credential, issuedAt: credential == nil ? nil : now())
    }

    /// Waits while an identity is being written, so nothing is sent or refreshed in between.
    func waitWhileSwitching() async {
        while switching {
            await withCheckedContinuation { switchWaiters.append($0) }
        }
    }

    private func endSwitch() {
        switching = false
        let waiters = switchWaiters
        switchWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Reads the source the first time, or on every request when the options say so. A
    /// different credential read later starts a new identity; `nil` after a credential is a
    /// sign-out.
    /// Whether ``load()`` has anything to do: nothing loaded yet, or a source read on every
    /// request while no refresh or storage write is under way.
    private var needsLoad: Bool {
        !loaded || (options.readsSourceOnEveryRequest && flight == nil && !storageBusy)
    }

    private func load() async throws {
        guard needsLoad else { return }
        let version = self.version
        let stored: Credential?
        do {
            stored = try await source.currentCredential()
        } catch {
            throw AuthError.refreshFailed(underlying: error)
        }
        // Anything adopted while this read was under way is newer than what it read.
        guard version == self.version else { return }
        if !loaded {
            loaded = true
            current = stored
            currentIssuedAt = nil
            self.version += 1
            return
        }
        // The credential whose refresh token was rejected is not taken up again from storage.
        guard flight == nil, !storageBusy, stored != current, stored == nil || stored != deadCredential else { return }
        beginIdentity()
        adoptIdentity(stored, issuedAt: nil)
    }

    /// Starts a new identity: the refresh of the old one (if any) is detached, its waiters told
    /// to give up without a replay; its result will not be adopted.
    private func beginIdentity() {
        identity += 1
        lastFailure = nil
        lastProactiveFailure = nil
        lastCompletion = nil
        if let flight {
            self.flight = nil
            outcomes[flight.number] = .success(nil)
            resumeWaiters(of: flight.number, with: .success(nil))
        }
    }

    /// Adopts a credential that did not come from a refresh, for the identity just begun.
    private func adoptIdentity(_ credential: Credential?, issuedAt: Date?) {
        version += 1
        loaded = true
        current = credential
        currentIssuedAt = issuedAt
        needsSignIn = credential == nil
        signedOut = credential == nil
        signInError = nil
        deadCredential = nil
    }

    /// Adopts the credential a refresh of the current identity produced (already persisted).
    func adoptRefreshed(_ credential: Credential) {
        current = credential
        currentIssuedAt = now()
        version += 1
        loaded = true
        needsSignIn = false
        signedOut = false
        signInError = nil
        lastFailure = nil
        lastProactiveFailure = nil
    }

    /// How close to its expiry the current credential is refreshed: the configured window, but
    /// at most half the lifetime of a credential whose issue time is known, so a token that
    /// lives shorter than the window is not refreshed on every request.
    func proactiveWindow(until expiry: Date) -> TimeInterval {
        let configured = options.proactiveRefreshWindow.seconds
        guard let issued = currentIssuedAt else { return configured }
        return min(configured, max(expiry.timeIntervalSince(issued), 0) / 2)
    }

    /// Waits until no other storage write runs, then claims storage.
    func acquireStorage() async {
        guard storageBusy else {
            storageBusy = true
            return
        }
        await withCheckedContinuation { storageQueue.append($0) }
    }

    /// Hands storage to the next writer, or frees it.
    func releaseStorage() {
        if storageQueue.isEmpty {
            storageBusy = false
        } else {
            storageQueue.removeFirst().resume()
        }
    }
}

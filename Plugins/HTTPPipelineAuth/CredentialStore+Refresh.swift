import Foundation
import HTTPPipeline

/// Refreshes: one at a time per identity, never abandoned, each waiter bounded by the timeout.
///
/// A refresh is a `Task` that is never cancelled: once the token endpoint has been called, the
/// refresh token it sent may already be spent, so its answer is always awaited, persisted and
/// adopted (unless the identity changed meanwhile). A waiter that times out or is cancelled
/// leaves alone; a request that needs a refresh while one runs joins it. So a refresh token is
/// never sent twice, and a late answer never overwrites a newer credential.
extension CredentialStore {
    /// The refresh in flight: its number, and whether it was started ahead of expiry (with
    /// nobody waiting). Its identity travels with its task, which compares it on completion.
    struct Flight: Sendable {
        let number: Int
        let proactive: Bool
    }

    /// A request waiting on a refresh, until its deadline on the store's timeline.
    struct Waiter {
        let number: Int
        let continuation: CheckedContinuation<Credential?, any Error>
        let deadline: Duration
    }

    /// A credential newer than `failed` for `identity`: the current one if it already replaced
    /// `failed` (a stale token needs no refresh), else the result of the refresh in flight, else
    /// the failure of a refresh that ended while this request (of `epoch`) was under way, else a
    /// new refresh. `nil` when the identity changed: the request must not be replayed.
    ///
    /// `joining` is told, before the wait, whether this request joins a refresh under way
    /// (`true`) or starts one (`false`); it is not told when no refresh is awaited.
    func refreshed(
        after failed: Credential?, identity: Int, epoch: Int, joining: (@Sendable (Bool) -> Void)? = nil
    ) async throws -> Credential? {
        await waitWhileSwitching()
        guard identity == self.identity else { return nil }
        if needsSignIn { throw signedOut ? AuthError.signedOut : (signInError ?? AuthError.reauthenticationRequired) }
        if let current, current != failed, !hasExpired(current) { return current }
        if let flight {
            joining?(true)
            return try await waitForRefresh(flight.number)
        }
        if completed > epoch, case .failure(let error)? = lastCompletion {
            throw error
        }
        let elapsed = timeline.elapsed
        if let lastFailure, elapsed - lastFailure.at < options.cooldownAfterFailure {
            throw lastFailure.error
        }
        guard admitRefresh(at: elapsed) else {
            throw AuthError.tooManyRefreshes(limit: options.refreshLimit, window: options.refreshLimitWindow)
        }
        let number = start(after: current ?? failed, proactive: false)
        joining?(false)
        return try await waitForRefresh(number)
    }

    /// Starts a refresh ahead of `expiry` with nobody waiting, unless one runs, the user must
    /// sign in, a recent one failed, or the rate limit is reached. Requests go on with the
    /// current credential meanwhile.
    func startProactiveRefresh(of credential: Credential, expiry: Date) {
        guard flight == nil, !needsSignIn, !storageBusy else { return }
        let elapsed = timeline.elapsed
        // After a failure, wait a quarter of the window (at least a second) before the next try.
        let pause = Duration.seconds(max(proactiveWindow(until: expiry) / 4, 1))
        if let lastProactiveFailure, elapsed - lastProactiveFailure < pause { return }
        if let lastFailure, elapsed - lastFailure.at < options.cooldownAfterFailure { return }
        guard admitRefresh(at: elapsed) else { return }
        _ = start(after: credential, proactive: true)
    }

    /// Whether a credential's known expiry has passed.
    func hasExpired(_ credential: Credential) -> Bool {
        guard let expiry = credential.expiresAt else { return false }
        return expiry.timeIntervalSince(now()) <= 0
    }

    /// Counts a refresh against the rate limit, if the limit allows one more.
    private func admitRefresh(at elapsed: Duration) -> Bool {
        refreshTimes.removeAll { elapsed - $0 >= options.refreshLimitWindow }
        guard refreshTimes.count < options.refreshLimit else { return false }
        refreshTimes.append(elapsed)
        return true
    }

    private func start(after failed: Credential?, proactive: Bool) -> Int {
        flights += 1
        let number = flights
        let identity = self.identity
        flight = Flight(number: number, proactive: proactive)
        let source = self.source
        Task {
            let outcome: Result<Credential, any Error>
            do {
                let fresh = try await source.refreshCredential(after: failed)
                try fresh.validate()
                outcome = .success(fresh)
            } catch {
                outcome = .failure(error)
            }
            await self.complete(number, identity: identity, outcome)
        }
        return number
    }

    /// Persists and adopts a refresh's credential if its identity is still current, then ends
    /// the refresh.
    private func complete(_ number: Int, identity: Int, _ outcome: Result<Credential, any Error>) async {
        guard case .success(let fresh) = outcome else {
            finish(number, identity: identity, with: outcome.mapError(Self.mapped))
            return
        }
        await acquireStorage()
        defer { releaseStorage() }
        guard identity == self.identity else {
            finish(number, identity: identity, with: .success(fresh))
            return
        }
        do {
            try await source.persist(fresh)
        } catch {
            finish(number, identity: identity, with: .failure(Self.mapped(error)))
            return
        }
        // Storage writes are serialised, so no identity change can have happened meanwhile.
        adoptRefreshed(fresh)
        finish(number, identity: identity, with: .success(fresh))
    }

    /// Ends refresh number `number`: records how it ended (for its identity only) and resumes
    /// its waiters: with the credential, the error, or `nil` when the identity changed.
    private func finish(_ number: Int, identity: Int, with result: Result<Credential, any Error>) {
        var proactive = false
        if let flight, flight.number == number {
            proactive = flight.proactive
            self.flight = nil
        }
        let outcome: Result<Credential?, any Error>
        if identity == self.identity {
            outcome = result.map { $0 }
            switch result {
            case .success: break
            case .failure(let error):
                lastFailure = (timeline.elapsed, error)
                if proactive { lastProactiveFailure = timeline.elapsed }
                if let error = error as? AuthError, error.isReauthenticationRequired {
                    needsSignIn = true
                    signedOut = false
                    signInError = error
                    // Rejected after a 401 or an expiry, the credential is dead too; ahead of
                    // expiry it still works until it expires.
                    deadCredential = current
                    if !proactive {
                        current = nil
                        version += 1
                    }
                }
            }
            completed += 1
            lastCompletion = result
        } else {
            outcome = .success(nil)
        }
        outcomes[number] = outcome
        outcomes = outcomes.filter { $0.key > number - 8 }
        resumeWaiters(of: number, with: outcome)
    }

    /// Resumes every waiter of refresh `number` with `outcome`.
    func resumeWaiters(of number: Int, with outcome: Result<Credential?, any Error>) {
        let ids = waiters.filter { $0.value.number == number }.map(\.key)
        for id in ids {
            waiters.removeValue(forKey: id)?.continuation.resume(with: outcome)
        }
        if waiters.isEmpty { stopTimer() }
    }

    /// Waits for refresh number `number`, at most the refresh timeout; a cancelled waiter leaves
    /// at once. Neither ends the refresh.
    private func waitForRefresh(_ number: Int) async throws -> Credential? {
        let id = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else if flight?.number == number {
                    waiters[id] = Waiter(
                        number: number, continuation: continuation, deadline: timeline.elapsed + options.refreshTimeout)
                    armTimer()
                } else {
                    continuation.resume(with: outcomes[number] ?? .success(nil))
                }
            }
        } onCancel: {
            Task { await self.leave(id) }
        }
    }

    /// A cancelled waiter leaves; the refresh goes on. (One already resumed has nothing to do.)
    private func leave(_ id: UUID) {
        waiters.removeValue(forKey: id)?.continuation.resume(throwing: CancellationError())
        if waiters.isEmpty { stopTimer() }
    }

    /// Sleeps until the earliest waiter's deadline, unless a timer already runs.
    private func armTimer() {
        guard timer == nil, let earliest = waiters.values.map(\.deadline).min() else { return }
        timerGeneration += 1
        let generation = timerGeneration
        let delay = max(earliest - timeline.elapsed, .zero)
        let timeline = self.timeline
        timer = Task {
            guard (try? await timeline.sleep(for: delay)) != nil else { return }
            self.expireWaiters(generation)
        }
    }

    private func stopTimer() {
        timer?.cancel()
        timer = nil
        timerGeneration += 1
    }

    /// Fails every waiter whose deadline has passed with ``AuthError/refreshTimedOut(after:)``,
    /// then sleeps until the next deadline.
    private func expireWaiters(_ generation: Int) {
        guard generation == timerGeneration else { return }
        timer = nil
        let elapsed = timeline.elapsed
        let due = waiters.filter { $0.value.deadline <= elapsed }.map(\.key)
        for id in due {
            waiters.removeValue(forKey: id)?.continuation.resume(
                throwing: AuthError.refreshTimedOut(after: options.refreshTimeout))
        }
        armTimer()
    }

    private static func mapped(_ error: any Error) -> any Error {
        switch error {
        case let error as AuthError: error
        case is RefreshTokenRejected: AuthError.reauthenticationRequired
        case let error as RefreshOutcomeUnknown: AuthError.refreshOutcomeUnknown(underlying: error.underlying)
        case let error as OAuth2Error where error.requiresSignIn: AuthError.reauthenticationRequired(underlying: error)
        default: AuthError.refreshFailed(underlying: error)
        }
    }
}

import Foundation
import HTTPPipeline

/// The one place that holds the current credential and runs refreshes, one at a time.
///
/// Single-flight: while a refresh runs, every caller that needs one waits on it; it is a `Task`
/// held here, with the waiters' continuations. A waiter cancelled while waiting leaves at once
/// with `CancellationError`; the refresh goes on for the others, and is cancelled only when no
/// waiter is left. A timeout, independent of the source, fails the waiters if the source hangs.
actor CredentialStore {
    private let source: any CredentialSource
    private let options: AuthOptions
    private let timeline: Timeline
    private let now: @Sendable () -> Date

    private var current: Credential?
    /// Whether `current` came from a refresh in this process: such a credential is refreshed
    /// proactively only once it has really expired, so tokens that live shorter than the
    /// proactive window do not cause a refresh per request.
    private var currentIsFresh = false
    private var loaded = false
    /// The refresh in progress, if any: its number, its work, its timeout and its waiters.
    private var flight: Int?
    private var flights = 0
    /// How many refreshes have completed (succeeded, failed or timed out), and how the last ended.
    private var completed = 0
    private var lastCompletion: Result<Credential, any Error>?
    private var waiters: [UUID: CheckedContinuation<Credential, any Error>] = [:]
    /// Outcomes of the most recent refreshes, by number: a caller that asked to wait on a refresh
    /// may only get to register after it ended (the actor is free while the caller hops onto it).
    private var outcomes: [Int: Result<Credential, any Error>] = [:]
    /// Waiters cancelled before they got to register.
    private var cancelledEarly: Set<UUID> = []
    private var work: Task<Void, Never>?
    private var timeout: Task<Void, Never>?
    private var refreshTimes: [Duration] = []
    private var lastFailure: (at: Duration, error: any Error)?

    init(source: any CredentialSource, options: AuthOptions, timeline: Timeline, now: @escaping @Sendable () -> Date) {
        self.source = source
        self.options = options
        self.timeline = timeline
        self.now = now
    }

    /// The credential to send now: loaded from the source the first time, refreshed first when
    /// there is none or it expires within the proactive window.
    ///
    /// Also returns the number of refreshes completed so far: the request's epoch, which tells
    /// later whether a refresh completed (and failed) while this request was under way.
    func credential() async throws -> (Credential, epoch: Int) {
        if !loaded {
            let stored: Credential?
            do {
                stored = try await source.currentCredential()
            } catch {
                throw AuthError.refreshFailed(underlying: error)
            }
            // Another caller may have loaded or refreshed while this one waited.
            if !loaded {
                loaded = true
                current = current ?? stored
            }
        }
        guard let current else { return (try await refreshed(after: nil, epoch: completed), completed) }
        if let expiry = current.expiresAt {
            let remaining = expiry.timeIntervalSince(now())
            if remaining <= 0 || (!currentIsFresh && remaining <= options.proactiveRefreshWindow.seconds) {
                return (try await refreshed(after: current, epoch: completed), completed)
            }
        }
        return (current, completed)
    }

    /// A credential newer than `failed`: the current one if it already replaced `failed` (a
    /// stale token needs no refresh), else the result of the refresh in flight, else the failure
    /// of a refresh that ran while this request (of `epoch`) was under way, else a new refresh.
    func refreshed(after failed: Credential?, epoch: Int) async throws -> Credential {
        if let current, current != failed { return current }
        if let flight { return try await waitForRefresh(flight) }
        if completed > epoch, case .failure(let error)? = lastCompletion {
            throw error
        }
        let elapsed = timeline.elapsed
        if let lastFailure, elapsed - lastFailure.at < options.cooldownAfterFailure {
            throw lastFailure.error
        }
        refreshTimes.removeAll { elapsed - $0 >= options.refreshLimitWindow }
        guard refreshTimes.count < options.refreshLimit else {
            throw AuthError.tooManyRefreshes(limit: options.refreshLimit, window: options.refreshLimitWindow)
        }
        refreshTimes.append(elapsed)
        return try await waitForRefresh(start(after: failed))
    }

    private func start(after failed: Credential?) -> Int {
        flights += 1
        let number = flights
        flight = number
        let source = self.source
        work = Task {
            let result: Result<Credential, any Error>
            do {
                let fresh = try await source.refreshCredential(after: failed)
                try fresh.validate()
                try await source.persist(fresh)
                result = .success(fresh)
            } catch {
                result = .failure(error)
            }
            self.finish(number, with: result)
        }
        let timeline = self.timeline
        let limit = options.refreshTimeout
        timeout = Task {
            guard (try? await timeline.sleep(for: limit)) != nil else { return }
            self.finish(number, with: .failure(AuthError.refreshTimedOut(after: limit)))
        }
        return number
    }

    /// Waits for refresh number `number`; a cancelled waiter leaves at once.
    private func waitForRefresh(_ number: Int) async throws -> Credential {
        let id = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if cancelledEarly.remove(id) != nil {
                    continuation.resume(throwing: CancellationError())
                } else if flight == number {
                    waiters[id] = continuation
                } else {
                    continuation.resume(with: outcomes[number] ?? .failure(CancellationError()))
                }
            }
        } onCancel: {
            Task { await self.leave(id) }
        }
    }

    /// A waiter was cancelled: it leaves now; when it was the last, the refresh is abandoned.
    /// (A waiter whose refresh already ended was resumed with its outcome: nothing to do.)
    private func leave(_ id: UUID) {
        guard let continuation = waiters.removeValue(forKey: id) else {
            cancelledEarly.insert(id)
            return
        }
        continuation.resume(throwing: CancellationError())
        if waiters.isEmpty, flight != nil {
            work?.cancel()
            timeout?.cancel()
            if let flight { outcomes[flight] = .failure(CancellationError()) }
            flight = nil
        }
    }

    /// Ends refresh number `number` once: adopts the credential (already persisted) or records
    /// the failure, then resumes every waiter with the same outcome.
    private func finish(_ number: Int, with outcome: Result<Credential, any Error>) {
        guard flight == number else { return }
        flight = nil
        let result = outcome.mapError(Self.mapped)
        timeout?.cancel()
        if case .failure(AuthError.refreshTimedOut) = result { work?.cancel() }
        switch result {
        case .success(let credential):
            current = credential
            currentIsFresh = true
            loaded = true
            lastFailure = nil
        case .failure(let error):
            if !(error is CancellationError) { lastFailure = (timeline.elapsed, error) }
        }
        outcomes[number] = result
        outcomes = outcomes.filter { $0.key > number - 8 }
        completed += 1
        lastCompletion = result
        let resumed = waiters.values
        waiters.removeAll()
        for waiter in resumed { waiter.resume(with: result) }
    }

    private static func mapped(_ error: any Error) -> any Error {
        switch error {
        case is AuthError, is CancellationError: error
        case is RefreshTokenRejected: AuthError.reauthenticationRequired
        default: AuthError.refreshFailed(underlying: error)
        }
    }
}

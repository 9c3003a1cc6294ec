public import Foundation
public import HTTPPipeline

/// Attaches a credential to each request; when the server rejects it, refreshes once for all
/// concurrent callers and replays each rejected request once with the new credential.
///
/// ```swift
/// import HTTPPipelineLogging
/// import HTTPPipelineRetry
///
/// let auth = AuthMiddleware(source: tokenStore)
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     RetryMiddleware(policy: .default)   // outside: each attempt re-runs auth
///     auth
///     LoggingMiddleware(level: .headers, sink: sink)   // inside: logs what was sent, redacted
/// }
/// ```
///
/// - **Single-flight**: concurrent requests that fail with the same credential share one call
///   to ``CredentialSource/refreshCredential(after:)`` and one ``CredentialSource/persist(_:)``,
///   which completes before any of them is replayed.
/// - **Stale tokens**: a request that failed with a credential already replaced is replayed with
///   the current one, without another refresh.
/// - **Proactive refresh**: a credential within ``AuthOptions/proactiveRefreshWindow`` of its
///   expiry (at most half its lifetime, when the middleware saw it issued) is still sent while a
///   refresh runs in the background; a failed one is tried again after a quarter of the window.
///   A token endpoint outage fails nothing until the credential has really expired.
/// - **Identity**: ``setCredential(_:)`` signs in, switches account or signs out. A request
///   rejected under one identity is never replayed with another's credential.
/// - **No loops**: a replay that is rejected again is returned as it is; more than
///   ``AuthOptions/refreshLimit`` refreshes in ``AuthOptions/refreshLimitWindow`` fail with
///   ``AuthError/tooManyRefreshes(limit:window:)``.
/// - **Failure**: a failed refresh fails every waiter with the same ``AuthError``, and does not
///   poison the middleware: a later request tries again (after the optional cooldown). A
///   ``RefreshTokenRejected`` from the source becomes ``AuthError/reauthenticationRequired``,
///   (a ``RefreshOutcomeUnknown`` becomes ``AuthError/refreshOutcomeUnknown(underlying:)``),
///   and every later request fails fast with it, without asking the source again, until
///   ``setCredential(_:)`` (or, with ``AuthOptions/readsSourceOnEveryRequest``, the source)
///   gives a new credential.
/// - **A refresh is never abandoned**: once the token endpoint is called its refresh token may
///   be spent, so the answer is always awaited, persisted and adopted. A waiter that is
///   cancelled, or waits longer than ``AuthOptions/refreshTimeout``, leaves alone; a request
///   that needs a refresh meanwhile joins the one under way. The middleware never starts a second
///   refresh for a credential whose refresh is under way, and storage always holds the credential
///   in use; a token call whose answer is lost is the source's to handle
///   (``RefreshOutcomeUnknown``, ``OAuth2TokenSource``).
/// - **Bodies that cannot be replayed**: a rejected request whose body is a stream
///   that can be read only once (`HTTPRequest.isReplayable` is false) still triggers the
///   refresh, but its response is returned as it is instead of being sent again without its body.
/// - **Origins**: behind a redirect layer, the credential goes only to the origin the call
///   started at (`HTTPRequestContext.redirectHistory`) or one of ``AuthOptions/allowedOrigins``;
///   a hop to another origin passes through without it, and its 401 refreshes nothing. Outside
///   a redirect layer, every field it sets (whatever the credential's scheme, a custom one's
///   fields included) is dropped by the redirect layer on a hop to another origin:
///   `Authorization` always, any other because auth marks it a credential
///   (`HTTPRequestContext.credentialFields`).
///
/// The token endpoint must be called through a pipeline without this middleware (see
/// ``CredentialSource``). Copies of one middleware value share one credential and one refresh.
///
/// ## Ordering
/// - **Inside redirects** (`RedirectMiddleware` listed first): each hop is authorised for its own
///   origin. With auth outside, the credential is attached once, a redirect layer drops it on a
///   hop to another origin, and a 401 at the end of the chain refreshes and replays it whole.
/// - **Inside retry** (retry listed first): every attempt runs auth again, so an attempt made after
///   the credential changed carries the new one. With auth outside retry a plain 401 still
///   recovers (auth replays the whole retried call once), but every attempt inside carries the
///   credential attached at the start, and a 401 made retryable costs a refresh per attempt.
/// - **Outside logging**: logging inside sees the request as sent, with its credential
///   (redacted by the logging plugin) and the replay as its own record; outside, one record and
///   no credential.
/// - **Inside default headers**, so a replay keeps their computed values. Never give
///   `Authorization` a default value in a pipeline with auth (see `DefaultHeaders`).
public struct AuthMiddleware: HTTPMiddleware {
    let store: CredentialStore
    let options: AuthOptions

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - source: Where credentials come from.
    ///   - options: How rejection is recognised and refreshes are limited; ``AuthOptions/default``.
    ///   - clock: The clock timeouts, the refresh limit and the cooldown are measured on.
    ///   - now: The wall clock credentials' expiry dates are compared with.
    public init(
        source: some CredentialSource,
        options: AuthOptions = .default,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.options = options
        self.store = CredentialStore(source: source, options: options, timeline: Timeline(clock), now: now)
    }

    /// Authorises the request, sends it, and on rejection refreshes and replays it once.
    ///
    /// - Parameters:
    ///   - request: The request; passed on untouched when ``AuthOptions/skips`` says so, when it
    ///     goes to an origin the credential is not for, or when it already carries the
    ///     credential's header.
    ///   - next: The rest of the pipeline, called once, or twice when a rejected request is replayed.
    /// - Returns: The response: the replay's when there was one, even if it is rejected again.
    /// - Throws: ``AuthError`` when no usable credential can be had, `CancellationError`, or what
    ///   `next` threw.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        switch request.context.auth {
        case nil: break
        case .skip?: return try await next(request)
        case .using(let other)?:
            var request = request
            request.context.auth = nil
            return try await other.intercept(request, next: next)
        }
        guard !options.skips(request), options.sendsCredential(with: request) else { return try await next(request) }
        // The usual request takes the lease the store published, without a hop onto its actor
        // (CredentialStore+Published.swift); loading, sign-ins, expiry and refreshes go through it.
        let lease: CredentialStore.Lease?
        if let published = store.publishedLease() {
            lease = published
        } else {
            let carried = request.fields
            lease = try await store.lease(unless: { carried[$0] != nil })
        }
        guard let lease, request.fields[lease.credential.headerName] == nil else {
            return try await next(request)
        }
        var authorized = request
        try lease.credential.authorize(&authorized)
        let response = try await next(authorized)
        guard options.isUnauthorized(response.head) else { return response }

        // Refreshed even when this request cannot be replayed, so the next one succeeds.
        let fresh =
            if request.context.observation == nil {
                try await store.refreshed(after: lease.credential, identity: lease.identity, epoch: lease.epoch)
            } else {
                try await observedRefresh(after: lease, rejection: response.status, of: request)
            }
        guard let fresh, fresh != lease.credential, request.isReplayable else { return response }
        var replay = request
        try fresh.authorize(&replay)
        try Task.checkCancellation()
        return try await next(replay)
    }

    /// ``CredentialStore/refreshed(after:identity:epoch:joining:)``, its start or join and its end
    /// reported to the call's observer.
    private func observedRefresh(
        after lease: CredentialStore.Lease, rejection: HTTPResponse.Status, of request: HTTPRequest
    ) async throws -> Credential? {
        var reporter = request
        reporter.body = nil
        let awaited = Locked(false)
        let start = MonotonicTime.now()
        do {
            let fresh = try await store.refreshed(
                after: lease.credential, identity: lease.identity, epoch: lease.epoch,
                joining: { [reporter] joined in
                    awaited.withLock { $0 = true }
                    reporter.report(joined ? .authRefreshJoined : .authRefreshStarted, status: rejection)
                })
            if awaited.value { reporter.report(.authRefreshFinished, duration: MonotonicTime.now() - start) }
            return fresh
        } catch {
            if awaited.value {
                reporter.report(.authRefreshFinished, error: error, duration: MonotonicTime.now() - start)
            }
            throw error
        }
    }

    /// Sets the credential from outside a refresh: after a sign-in, on an account switch, or
    /// `nil` on sign-out.
    ///
    /// The credential is written to the source first (``CredentialSource/persist(_:)``, or
    /// ``CredentialSource/removeCredential()`` for `nil`), after any write already under way, then
    /// used by every request that starts afterwards. It starts a new identity: a request sent
    /// with the previous credential that is rejected is returned as it is, never replayed with
    /// this one, and a refresh of the previous credential still under way is neither adopted nor
    /// persisted when it ends. After `nil`, requests fail with
    /// ``AuthError/reauthenticationRequired`` and the source is not asked to refresh until a
    /// credential is set again.
    ///
    /// - Parameter credential: The new credential, or `nil` to sign out.
    /// - Throws: ``AuthError/invalidCredential(reason:)`` for a credential that cannot be sent
    ///   (nothing is written), or what the source threw while writing (nothing is changed).
    public func setCredential(_ credential: Credential?) async throws {
        try await store.replace(with: credential)
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module.
extension AuthMiddleware: BindsWhenBuilt {}

import Foundation
public import HTTPPipeline

/// How the auth middleware recognises a rejected credential and how eagerly it refreshes.
public struct AuthOptions: Sendable {
    /// Whether a response says the credential is invalid. Default: status 401.
    public var isUnauthorized: @Sendable (HTTPResponseHead) -> Bool
    /// Requests that get no credential at all (for example, calls to a public endpoint or
    /// another host). Default: none. A request that already carries the credential's header is
    /// never touched either.
    public var skips: @Sendable (HTTPRequest) -> Bool
    /// A credential expiring within this window is refreshed in the background while it is
    /// still sent. For a credential the middleware saw issued (by a refresh or
    /// ``AuthMiddleware/setCredential(_:)``) the window is at most half its lifetime, so a token
    /// shorter-lived than the window is renewed at its half-life, not on every request.
    public var proactiveRefreshWindow: Duration
    /// How long a request waits for a refresh before it fails with
    /// ``AuthError/refreshTimedOut(after:)``. The refresh itself goes on, and its result is used.
    public var refreshTimeout: Duration
    /// The most refreshes allowed within ``refreshLimitWindow``; one more fails with
    /// ``AuthError/tooManyRefreshes(limit:window:)`` without calling the source.
    public var refreshLimit: Int
    /// The window ``refreshLimit`` counts over.
    public var refreshLimitWindow: Duration
    /// After a failed refresh, requests within this time fail with the same error instead of
    /// calling the source again. Zero by default: the next request may try at once.
    public var cooldownAfterFailure: Duration
    /// Whether every request asks the source for ``CredentialSource/currentCredential()``
    /// (while no refresh or write is under way), so a credential changed in storage by another
    /// part of the app is noticed without ``AuthMiddleware/setCredential(_:)``. A different
    /// credential starts a new identity; `nil` after a credential signs out. Requires a source
    /// whose ``CredentialSource/persist(_:)`` stores what `currentCredential()` returns. Off by
    /// default: the source is read once.
    public var readsSourceOnEveryRequest: Bool
    /// Origins the credential is sent to besides the one each call started at. Empty by
    /// default: a hop of a redirect (`HTTPRequestContext.redirectHistory`) to another origin goes
    /// without the credential, and its 401 refreshes nothing. Without a redirect layer outside,
    /// every request is its call's first, so this changes nothing.
    public var allowedOrigins: Set<HTTPOrigin>

    /// Status 401 means unauthorised, 60 s proactive window, 30 s refresh timeout, at most 5
    /// refreshes a minute, no cooldown, the source read once, the credential sent only to each
    /// call's first origin.
    public static let `default` = AuthOptions()

    /// Creates options; every parameter has the default described on ``default``.
    ///
    /// - Parameters:
    ///   - isUnauthorized: Whether a response rejects the credential.
    ///   - skips: Requests that get no credential.
    ///   - proactiveRefreshWindow: Refresh credentials expiring within this window.
    ///   - refreshTimeout: How long a refresh may take.
    ///   - refreshLimit: The most refreshes within `refreshLimitWindow`.
    ///   - refreshLimitWindow: The window of the refresh limit.
    ///   - cooldownAfterFailure: How long a failed refresh keeps failing requests fast.
    ///   - readsSourceOnEveryRequest: Whether every request reads the source.
    ///   - allowedOrigins: Origins the credential goes to besides each call's first one.
    public init(
        isUnauthorized: @escaping @Sendable (HTTPResponseHead) -> Bool = { $0.status == 401 },
        skips: @escaping @Sendable (HTTPRequest) -> Bool = { _ in false },
        proactiveRefreshWindow: Duration = .seconds(60),
        refreshTimeout: Duration = .seconds(30),
        refreshLimit: Int = 5,
        refreshLimitWindow: Duration = .seconds(60),
        cooldownAfterFailure: Duration = .zero,
        readsSourceOnEveryRequest: Bool = false,
        allowedOrigins: Set<HTTPOrigin> = []
    ) {
        self.isUnauthorized = isUnauthorized
        self.skips = skips
        self.proactiveRefreshWindow = max(proactiveRefreshWindow, .zero)
        self.refreshTimeout = max(refreshTimeout, .milliseconds(1))
        self.refreshLimit = max(refreshLimit, 1)
        self.refreshLimitWindow = max(refreshLimitWindow, .zero)
        self.cooldownAfterFailure = max(cooldownAfterFailure, .zero)
        self.readsSourceOnEveryRequest = readsSourceOnEveryRequest
        self.allowedOrigins = allowedOrigins
    }

    /// Whether the credential may go with `request`: always for a call's first request; for a
    /// later hop, when it goes to the call's first origin or one of ``allowedOrigins``.
    func sendsCredential(with request: HTTPRequest) -> Bool {
        guard let history = request.context.redirectHistory else { return true }
        guard let origin = HTTPOrigin(request.url) else { return false }
        return origin == history.originalOrigin || allowedOrigins.contains(origin)
    }

    /// A predicate for servers that reject tokens with a 401, or with a `WWW-Authenticate`
    /// challenge naming `error="invalid_token"` (RFC 6750) on another status.
    public static let invalidTokenChallenge: @Sendable (HTTPResponseHead) -> Bool = { response in
        if response.status == 401 { return true }
        let challenge = response.fields["WWW-Authenticate"]?.lowercased() ?? ""
        return challenge.hasPrefix("bearer") && challenge.contains("error=\"invalid_token\"")
    }
}

#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// How the auth middleware recognises a rejected credential and how eagerly it refreshes.
public struct AuthOptions: Sendable {
    /// Whether a response says the credential is invalid. Default: status 401.
    public var isUnauthorized: @Sendable (HTTPURLResponse) -> Bool
    /// Requests that get no credential at all (for example, calls to a public endpoint or
    /// another host). Default: none. A request that already carries the credential's header is
    /// never touched either.
    public var skips: @Sendable (URLRequest) -> Bool
    /// A credential expiring within this window is refreshed before use.
    public var proactiveRefreshWindow: Duration
    /// How long a refresh may take before every waiter fails with ``AuthError/refreshTimedOut(after:)``.
    public var refreshTimeout: Duration
    /// The most refreshes allowed within ``refreshLimitWindow``; one more fails with
    /// ``AuthError/tooManyRefreshes(limit:window:)`` without calling the source.
    public var refreshLimit: Int
    /// The window ``refreshLimit`` counts over.
    public var refreshLimitWindow: Duration
    /// After a failed refresh, requests within this time fail with the same error instead of
    /// calling the source again. Zero by default: the next request may try at once.
    public var cooldownAfterFailure: Duration

    /// Status 401 means unauthorised, 60 s proactive window, 30 s refresh timeout, at most 5
    /// refreshes a minute, no cooldown.
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
    public init(
        isUnauthorized: @escaping @Sendable (HTTPURLResponse) -> Bool = { $0.statusCode == 401 },
        skips: @escaping @Sendable (URLRequest) -> Bool = { _ in false },
        proactiveRefreshWindow: Duration = .seconds(60),
        refreshTimeout: Duration = .seconds(30),
        refreshLimit: Int = 5,
        refreshLimitWindow: Duration = .seconds(60),
        cooldownAfterFailure: Duration = .zero
    ) {
        self.isUnauthorized = isUnauthorized
        self.skips = skips
        self.proactiveRefreshWindow = max(proactiveRefreshWindow, .zero)
        self.refreshTimeout = max(refreshTimeout, .milliseconds(1))
        self.refreshLimit = max(refreshLimit, 1)
        self.refreshLimitWindow = max(refreshLimitWindow, .zero)
        self.cooldownAfterFailure = max(cooldownAfterFailure, .zero)
    }

    /// A predicate for servers that reject tokens with a 401, or with a `WWW-Authenticate`
    /// challenge naming `error="invalid_token"` (RFC 6750) on another status.
    public static let invalidTokenChallenge: @Sendable (HTTPURLResponse) -> Bool = { response in
        if response.statusCode == 401 { return true }
        let challenge = response.value(forHTTPHeaderField: "WWW-Authenticate")?.lowercased() ?? ""
        return challenge.hasPrefix("bearer") && challenge.contains("error=\"invalid_token\"")
    }
}

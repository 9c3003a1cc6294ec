/// Why the auth layer could not put a usable credential on a request.
///
/// A struct with a private code, so a new reason is a new static, never a break in a caller's
/// exhaustive `switch`: read ``isReauthenticationRequired`` and the other `is…` properties, and
/// ``underlying``, ``limit``, ``window``, ``timeout``, ``reason`` for the details. Its description
/// names what failed, never a credential.
public struct AuthError: Error, Sendable, CustomStringConvertible {
    private enum Code: Sendable {
        case refreshFailed, reauthenticationRequired, refreshOutcomeUnknown, tooManyRefreshes, refreshTimedOut
        case invalidCredential
    }

    private let code: Code
    /// What the credential source threw, for a failed refresh, a refresh whose outcome is unknown,
    /// or a rejected refresh token when the source said why (`OAuth2Error`); `nil` otherwise.
    public let underlying: (any Error)?
    /// The most refreshes allowed within ``window``, for too many refreshes; `nil` otherwise.
    public let limit: Int?
    /// The window the refresh limit counts over, for too many refreshes; `nil` otherwise.
    public let window: Duration?
    /// How long the refresh was waited for, for a refresh that timed out; `nil` otherwise.
    public let timeout: Duration?
    /// What is wrong with the credential, for an invalid one; `"signed out"` when the user must
    /// sign in again because they signed out; `nil` otherwise.
    public let reason: String?

    private init(
        _ code: Code, underlying: (any Error)? = nil, limit: Int? = nil, window: Duration? = nil,
        timeout: Duration? = nil, reason: String? = nil
    ) {
        self.code = code
        self.underlying = underlying
        self.limit = limit
        self.window = window
        self.timeout = timeout
        self.reason = reason
    }

    /// The refresh failed; every request that waited on it gets this same error.
    ///
    /// - Parameter underlying: What the credential source threw.
    public static func refreshFailed(underlying: any Error) -> AuthError {
        AuthError(.refreshFailed, underlying: underlying)
    }

    /// The refresh token itself was rejected: the user must sign in again.
    public static let reauthenticationRequired = AuthError(.reauthenticationRequired)

    /// The refresh token was rejected; `underlying` says how (the token endpoint's answer).
    static func reauthenticationRequired(underlying: any Error) -> AuthError {
        AuthError(.reauthenticationRequired, underlying: underlying)
    }

    /// The token endpoint's answer to a refresh was lost (a timeout or a connection lost after
    /// the refresh token was sent), so the server may already have rotated the refresh token the
    /// source holds: the source will not present it again, and the user must sign in again.
    ///
    /// ``isReauthenticationRequired`` is `true` as well, so code that prompts for sign-in needs no
    /// new case. A source signals it by throwing ``RefreshOutcomeUnknown``.
    ///
    /// - Parameter underlying: What the token call failed with.
    public static func refreshOutcomeUnknown(underlying: any Error) -> AuthError {
        AuthError(.refreshOutcomeUnknown, underlying: underlying)
    }

    /// The user signed out (the credential was set to `nil`): a request needs them to sign in
    /// again. ``isReauthenticationRequired`` is `true`, and ``reason`` says `"signed out"`.
    public static let signedOut = AuthError(.reauthenticationRequired, reason: "signed out")

    /// More than `limit` refreshes happened within `window`; the token endpoint is not called
    /// again until the window has moved on.
    public static func tooManyRefreshes(limit: Int, window: Duration) -> AuthError {
        AuthError(.tooManyRefreshes, limit: limit, window: window)
    }

    /// The credential source did not answer within the refresh timeout.
    public static func refreshTimedOut(after timeout: Duration) -> AuthError {
        AuthError(.refreshTimedOut, timeout: timeout)
    }

    /// A credential that cannot be sent: empty, or holding characters a header cannot carry.
    public static func invalidCredential(reason: String) -> AuthError {
        AuthError(.invalidCredential, reason: reason)
    }

    /// Whether the refresh failed (``underlying`` says why).
    public var isRefreshFailed: Bool { code == .refreshFailed }
    /// Whether the user must sign in again: the refresh token was rejected, its fate is unknown
    /// (``isRefreshOutcomeUnknown``), or the user signed out.
    public var isReauthenticationRequired: Bool { code == .reauthenticationRequired || code == .refreshOutcomeUnknown }
    /// Whether a refresh's answer was lost and its refresh token may be spent: the user must sign
    /// in again.
    public var isRefreshOutcomeUnknown: Bool { code == .refreshOutcomeUnknown }
    /// Whether the refresh limit was reached.
    public var isTooManyRefreshes: Bool { code == .tooManyRefreshes }
    /// Whether the refresh was not answered in time.
    public var isRefreshTimedOut: Bool { code == .refreshTimedOut }
    /// Whether the credential cannot be sent.
    public var isInvalidCredential: Bool { code == .invalidCredential }

    public var description: String {
        switch code {
        case .refreshFailed: "refreshing the credential failed: \(underlying.map { "\(type(of: $0))" } ?? "unknown")"
        case .reauthenticationRequired:
            reason == nil ? "the refresh token was rejected; sign in again" : "the user is signed out; sign in again"
        case .refreshOutcomeUnknown:
            "the token endpoint's answer to a refresh was lost and the refresh token may be spent; sign in again"
        case .tooManyRefreshes:
            "more than \(limit ?? 0) credential refreshes within \(window ?? .zero); not refreshing again yet"
        case .refreshTimedOut: "the credential source did not answer within \(timeout ?? .zero)"
        case .invalidCredential: "invalid credential: \(reason ?? "")"
        }
    }
}

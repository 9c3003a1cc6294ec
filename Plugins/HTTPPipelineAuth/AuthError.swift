/// Why the auth middleware could not authorise a request. Descriptions never hold a token.
public enum AuthError: Error, Sendable, CustomStringConvertible {
    /// The refresh failed; every request that waited on it gets this same error.
    case refreshFailed(underlying: any Error)
    /// The refresh token itself was rejected: the user must sign in again.
    case reauthenticationRequired
    /// More than the allowed number of refreshes happened within the guard's window; the token
    /// endpoint is not called again until the window has moved on.
    case tooManyRefreshes(limit: Int, window: Duration)
    /// The credential source did not answer within the refresh timeout.
    case refreshTimedOut(after: Duration)
    /// A credential that cannot be sent: empty, or holding characters a header cannot carry.
    case invalidCredential(reason: String)

    public var description: String {
        switch self {
        case .refreshFailed(let underlying): "refreshing the credential failed: \(type(of: underlying))"
        case .reauthenticationRequired: "the refresh token was rejected; sign in again"
        case .tooManyRefreshes(let limit, let window):
            "more than \(limit) credential refreshes within \(window); not refreshing again yet"
        case .refreshTimedOut(let after): "the credential source did not answer within \(after)"
        case .invalidCredential(let reason): "invalid credential: \(reason)"
        }
    }
}

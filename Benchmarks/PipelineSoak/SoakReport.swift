/// How a soak request ended, as its caller saw it.
package enum SoakOutcome: Hashable, Sendable, CustomStringConvertible {
    /// A 200 whose body decoded to the request's own body.
    case ok
    /// A response with another status (a 503 or 429 left after retry gave up, a 401 after a
    /// second revocation).
    case status(Int)
    /// A `URLError` retry gave up on.
    case transportError
    /// A typed `GzipError` from a corrupt body.
    case gzipError
    /// The caller cancelled it.
    case cancelled
    /// It waited on a refresh longer than auth's refresh timeout.
    case refreshTimedOut
    /// Auth said the user must sign in again: a logout, which the run must never cause.
    case loggedOut

    package var description: String {
        switch self {
        case .ok: "200 (own body)"
        case .status(let status): "\(status)"
        case .transportError: "URLError"
        case .gzipError: "GzipError"
        case .cancelled: "CancellationError"
        case .refreshTimedOut: "AuthError.refreshTimedOut"
        case .loggedOut: "AuthError.reauthenticationRequired"
        }
    }
}

/// What a soak run saw: the outcome of every request, the server's revocations and refreshes,
/// and resident memory before and after, with every broken invariant listed.
package struct SoakReport: Sendable {
    /// Requests sent in the measured run.
    package var requests = 0
    /// How many requests ended in each outcome.
    package var outcomes: [SoakOutcome: Int] = [:]
    /// Times the server revoked the valid token.
    package var revocations = 0
    /// Times the client refreshed its token.
    package var refreshes = 0
    /// Accounts the run signed in to (one more than its account switches).
    package var accounts = 0
    /// Token answers the endpoint lost after rotating.
    package var tokenAnswersLost = 0
    /// Refresh tokens presented again within the endpoint's reuse grace, after a lost answer.
    package var graceReuses = 0
    /// Log records written.
    package var logRecords = 0
    /// Log records whose text held a token.
    package var logRecordsWithSecrets = 0
    /// Resident memory before the first request of the measured run, in bytes (`nil` off Linux).
    package var residentBefore: Int?
    /// Resident memory after its last request, with its pipeline still alive.
    package var residentAfter: Int?
    /// Wall time of the measured run, in seconds.
    package var seconds = 0.0
    /// Every broken invariant, in words; empty when the run held.
    package var violations: [String] = []

    /// Requests that ended in exactly one outcome.
    package var answered: Int { outcomes.values.reduce(0, +) }

    /// An empty report, filled in by a run (or by a test of the checks).
    package init() {}

    /// Resident memory growth over the run, in megabytes.
    package var residentGrowthMegabytes: Double? {
        guard let before = residentBefore, let after = residentAfter else { return nil }
        return Double(after - before) / 1e6
    }
}

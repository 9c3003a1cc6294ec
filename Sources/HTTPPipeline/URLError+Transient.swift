package import Foundation

extension URLError {
    /// Transport failures that are usually gone on the next attempt: what retry retries and what
    /// a circuit breaker counts as the server's failure by default.
    package static let transientCodes: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
        .notConnectedToInternet, .badServerResponse, .resourceUnavailable, .internationalRoamingOff,
        .callIsActive, .dataNotAllowed,
    ]
}

package import Foundation

extension URLError {
    /// Transport failures that are usually gone on the next attempt: timed out, connection lost,
    /// cannot connect, cannot find host, DNS failure, not connected, a bad server response, and
    /// the mobile-data refusals. Retry retries them and hedging does not accept them as an answer.
    package static let transientCodes: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
        .notConnectedToInternet, .badServerResponse, .resourceUnavailable, .internationalRoamingOff,
        .callIsActive, .dataNotAllowed,
    ]
}

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

    /// The transient failures that come before a byte of the request is sent: nothing accepted
    /// the connection, the name did not resolve, no network, the mobile-data refusals.
    package static let notSentCodes: Set<URLError.Code> = [
        .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
        .internationalRoamingOff, .callIsActive, .dataNotAllowed,
    ]
}

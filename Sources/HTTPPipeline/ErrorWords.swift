package import Foundation

/// Errors in words that are safe to log and to show a developer: a `URLError`'s symbolic name and
/// the host it failed on, never its URL's path or query (which may carry a token).
///
/// Foundation's own descriptions read as numbers on Linux
/// (`Error Domain=NSURLErrorDomain Code=-1004 "(null)"`) and embed the whole failing URL on
/// Darwin; the API layer's `APIError` and the logging plugin use these words instead.
///
/// ```swift
/// let error = URLError(.cannotConnectToHost)
/// print(ErrorWords.describe(error))   // cannotConnectToHost (URLError -1004)
/// ```
package enum ErrorWords {
    /// The symbolic name of a `URLError` code, as written in Swift (`cannotConnectToHost`), or
    /// `code <n>` for a code Foundation does not name.
    ///
    /// - Parameter code: The code.
    /// - Returns: Its name.
    package static func name(of code: URLError.Code) -> String {
        urlErrorNames[code.rawValue] ?? "code \(code.rawValue)"
    }

    /// A one-line description of an error without secrets: for a `URLError`, its name, its
    /// number and the host (and port) it failed on; `cancelled` for `CancellationError`; the
    /// description of an ``HTTPTransportError``; for any other error, its type, domain and code
    /// (other errors' descriptions may embed a URL or a header).
    ///
    /// - Parameter error: The error.
    /// - Returns: For example `cannotConnectToHost (URLError -1004) to 127.0.0.1:8080`.
    package static func describe(_ error: any Error) -> String {
        switch error {
        case is CancellationError:
            return "cancelled"
        case let error as HTTPTransportError:
            return error.description
        case let error as URLError:
            var text = "\(name(of: error.code)) (URLError \(error.code.rawValue))"
            if let host = failingHost(of: error) { text += " to \(host)" }
            return text
        default:
            let bridged = error as NSError
            return "\(String(reflecting: type(of: error))) (\(bridged.domain) \(bridged.code))"
        }
    }

    /// The host and port a `URLError` failed on, from its failing URL, if it carries one.
    static func failingHost(of error: URLError) -> String? {
        let url = error.failingURL ?? (error.userInfo["NSErrorFailingURLStringKey"] as? String).flatMap(URL.init)
        guard let host = url?.host, !host.isEmpty else { return nil }
        return url?.port.map { "\(host):\($0)" } ?? host
    }

    private static let urlErrorNames: [Int: String] = {
        let named: [(URLError.Code, String)] = [
            (.unknown, "unknown"), (.cancelled, "cancelled"), (.badURL, "badURL"), (.timedOut, "timedOut"),
            (.unsupportedURL, "unsupportedURL"), (.cannotFindHost, "cannotFindHost"),
            (.cannotConnectToHost, "cannotConnectToHost"), (.networkConnectionLost, "networkConnectionLost"),
            (.dnsLookupFailed, "dnsLookupFailed"), (.httpTooManyRedirects, "httpTooManyRedirects"),
            (.resourceUnavailable, "resourceUnavailable"), (.notConnectedToInternet, "notConnectedToInternet"),
            (.redirectToNonExistentLocation, "redirectToNonExistentLocation"),
            (.badServerResponse, "badServerResponse"), (.userCancelledAuthentication, "userCancelledAuthentication"),
            (.userAuthenticationRequired, "userAuthenticationRequired"), (.zeroByteResource, "zeroByteResource"),
            (.cannotDecodeRawData, "cannotDecodeRawData"), (.cannotDecodeContentData, "cannotDecodeContentData"),
            (.cannotParseResponse, "cannotParseResponse"),
            (.appTransportSecurityRequiresSecureConnection, "appTransportSecurityRequiresSecureConnection"),
            (.fileDoesNotExist, "fileDoesNotExist"), (.fileIsDirectory, "fileIsDirectory"),
            (.noPermissionsToReadFile, "noPermissionsToReadFile"),
            (.dataLengthExceedsMaximum, "dataLengthExceedsMaximum"),
            (.secureConnectionFailed, "secureConnectionFailed"),
            (.serverCertificateHasBadDate, "serverCertificateHasBadDate"),
            (.serverCertificateUntrusted, "serverCertificateUntrusted"),
            (.serverCertificateHasUnknownRoot, "serverCertificateHasUnknownRoot"),
            (.serverCertificateNotYetValid, "serverCertificateNotYetValid"),
            (.clientCertificateRejected, "clientCertificateRejected"),
            (.clientCertificateRequired, "clientCertificateRequired"),
            (.cannotLoadFromNetwork, "cannotLoadFromNetwork"), (.cannotCreateFile, "cannotCreateFile"),
            (.cannotOpenFile, "cannotOpenFile"), (.cannotCloseFile, "cannotCloseFile"),
            (.cannotWriteToFile, "cannotWriteToFile"), (.cannotRemoveFile, "cannotRemoveFile"),
            (.cannotMoveFile, "cannotMoveFile"), (.downloadDecodingFailedMidStream, "downloadDecodingFailedMidStream"),
            (.downloadDecodingFailedToComplete, "downloadDecodingFailedToComplete"),
            (.internationalRoamingOff, "internationalRoamingOff"), (.callIsActive, "callIsActive"),
            (.dataNotAllowed, "dataNotAllowed"), (.requestBodyStreamExhausted, "requestBodyStreamExhausted"),
        ]
        return Dictionary(named.map { ($0.0.rawValue, $0.1) }, uniquingKeysWith: { first, _ in first })
    }()
}

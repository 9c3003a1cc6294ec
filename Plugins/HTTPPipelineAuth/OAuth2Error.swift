/// Why an ``OAuth2TokenSource`` got no token: the token endpoint answered with an error
/// (RFC 6749 §5.2, ``code``), or its answer could not be used.
///
/// The auth middleware reports it as ``AuthError/refreshFailed(underlying:)``, except
/// `invalid_grant` on a refresh (and a refresh with no refresh token), which need a new sign-in:
/// ``AuthError/reauthenticationRequired`` with this error as ``AuthError/underlying``. Its
/// description holds no token and no secret; the server's `error_description` is shown only as
/// printable ASCII, at most 200 characters.
public struct OAuth2Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// An error code from RFC 6749 §5.2, or another a server sent.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String

        /// Creates a code.
        ///
        /// - Parameter rawValue: The code as the server sent it.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The request is malformed: a parameter missing, repeated or unsupported.
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// The client could not be authenticated (unknown client, wrong secret, unsupported
        /// authentication method).
        public static let invalidClient = Code(rawValue: "invalid_client")
        /// The grant (here: the refresh token) is invalid, expired, revoked, or was issued to
        /// another client: the user must sign in again.
        public static let invalidGrant = Code(rawValue: "invalid_grant")
        /// The client may not use this grant type.
        public static let unauthorizedClient = Code(rawValue: "unauthorized_client")
        /// The server does not support this grant type.
        public static let unsupportedGrantType = Code(rawValue: "unsupported_grant_type")
        /// The requested scope is invalid, unknown, or exceeds what was granted.
        public static let invalidScope = Code(rawValue: "invalid_scope")

        public var description: String { rawValue }
    }

    private enum Kind: Sendable, Hashable {
        case server, unexpectedStatus, malformedResponse, noRefreshToken, superseded
    }

    private let kind: Kind
    /// The error code the token endpoint answered with; `nil` when the source found the problem.
    public let code: Code?
    /// The endpoint's `error_description`, as printable ASCII of at most 200 characters.
    public let errorDescription: String?
    /// The endpoint's `error_uri`, if it sent one.
    public let errorURI: String?
    /// The status code of the answer, when there was one.
    public let status: Int?
    /// What was wrong with an answer the source could not use; `nil` for a server error.
    public let reason: String?

    private init(
        _ kind: Kind, code: Code? = nil, errorDescription: String? = nil, errorURI: String? = nil,
        status: Int? = nil, reason: String? = nil
    ) {
        self.kind = kind
        self.code = code
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.status = status
        self.reason = reason
    }

    /// The endpoint answered with an error response (RFC 6749 §5.2).
    static func server(code: Code, description: String?, uri: String?, status: Int) -> OAuth2Error {
        OAuth2Error(
            .server, code: code, errorDescription: description.map(Self.printable), errorURI: uri.map(Self.printable),
            status: status)
    }

    /// The endpoint answered with a status that is neither success nor an error response.
    static func unexpectedStatus(_ status: Int) -> OAuth2Error {
        OAuth2Error(.unexpectedStatus, status: status, reason: "the token endpoint answered \(status)")
    }

    /// A success answer the source could not read.
    static func malformedResponse(_ reason: String, status: Int) -> OAuth2Error {
        OAuth2Error(.malformedResponse, status: status, reason: reason)
    }

    /// A refresh was needed but no refresh token is held.
    static let noRefreshToken = OAuth2Error(.noRefreshToken, reason: "no refresh token is held; sign in again")

    /// The credential to refresh is no longer the one stored: the user signed out or switched
    /// account after the refresh was asked for. Nothing was sent.
    static let superseded = OAuth2Error(
        .superseded, reason: "the credential to refresh is no longer the stored one; nothing was sent")

    /// Whether the endpoint answered with an error response; ``code`` says which.
    public var isServerError: Bool { kind == .server }
    /// Whether a success answer could not be read (not JSON, no access token, a token type
    /// other than Bearer, a token a header cannot carry).
    public var isMalformedResponse: Bool { kind == .malformedResponse }
    /// Whether the endpoint answered with a status that is neither 200 nor an error response
    /// (a redirect, which is never followed, or a server failure).
    public var isUnexpectedStatus: Bool { kind == .unexpectedStatus }
    /// Whether a refresh was needed and no refresh token is held.
    public var isNoRefreshToken: Bool { kind == .noRefreshToken }
    /// Whether the refresh was asked for a credential that another (a sign-in, an account
    /// switch, a sign-out) had replaced by the time it ran: nothing was sent, and the auth
    /// middleware, which asked under the previous identity, discards the outcome.
    public var isSuperseded: Bool { kind == .superseded }

    /// Whether the user must sign in again: the refresh token was refused (`invalid_grant`), or
    /// there is none.
    var requiresSignIn: Bool { kind == .noRefreshToken || code == .invalidGrant }

    public var description: String {
        switch kind {
        case .server:
            let detail = errorDescription.map { ": \($0)" } ?? ""
            return "the token endpoint answered \(status ?? 0) \(code?.rawValue ?? "")\(detail)"
        case .unexpectedStatus, .malformedResponse, .noRefreshToken, .superseded:
            return reason ?? ""
        }
    }

    /// Printable ASCII only, at most 200 characters: a server's words reach logs.
    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { (0x20...0x7E).contains($0.value) }.prefix(200)))
    }
}

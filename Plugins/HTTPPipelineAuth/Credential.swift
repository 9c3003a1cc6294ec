public import Foundation
public import HTTPPipeline

/// A secret that authorises requests, and how to attach it: a bearer token, an API key header,
/// or your own scheme. It may carry an expiry, for proactive refresh.
///
/// Its description never shows the secret.
public struct Credential: Sendable, Equatable, CustomStringConvertible {
    /// How a credential is attached to a request.
    public enum Scheme: Sendable {
        /// `Authorization: Bearer <token>`.
        case bearer
        /// `<name>: <token>`, for API keys.
        case header(String)
        /// Your own: the closure receives the request and the token, and sets what it needs.
        case custom(name: String, apply: @Sendable (inout HTTPRequest, String) -> Void)
    }

    /// The secret itself.
    public let token: String
    /// When it stops being valid, if known; a credential expiring within the middleware's
    /// refresh window is refreshed before use.
    public let expiresAt: Date?
    /// How it is attached.
    public let scheme: Scheme

    /// Why the credential cannot be sent, checked once when it is made (not on every request).
    let problem: AuthError?

    /// The field value ``authorize(_:)`` sets for the built-in schemes, built once.
    let headerValue: String

    /// Creates a credential.
    ///
    /// - Parameters:
    ///   - token: The secret.
    ///   - expiresAt: When it expires, if known.
    ///   - scheme: How it is attached; ``Scheme/bearer`` by default.
    public init(token: String, expiresAt: Date? = nil, scheme: Scheme = .bearer) {
        self.token = token
        self.expiresAt = expiresAt
        self.scheme = scheme
        problem = Self.problem(token: token, scheme: scheme)
        headerValue =
            switch scheme {
            case .bearer: "Bearer " + token
            case .header, .custom: token
            }
    }

    /// A bearer token: `Authorization: Bearer <token>`.
    ///
    /// - Parameters:
    ///   - token: The access token.
    ///   - expiresAt: When it expires, if known.
    /// - Returns: The credential.
    public static func bearer(_ token: String, expiresAt: Date? = nil) -> Credential {
        Credential(token: token, expiresAt: expiresAt, scheme: .bearer)
    }

    /// An API key sent in a header of its own.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - header: The header's name; `X-API-Key` by default.
    /// - Returns: The credential.
    public static func apiKey(_ key: String, header: String = "X-API-Key") -> Credential {
        Credential(token: key, scheme: .header(header))
    }

    /// The header this credential sets (for a custom scheme, the name it declared).
    public var headerName: String {
        switch scheme {
        case .bearer: "Authorization"
        case .header(let name): name
        case .custom(let name, _): name
        }
    }

    /// Two credentials are the same when they carry the same token in the same header: that is
    /// what tells a stale token from the current one.
    public static func == (lhs: Credential, rhs: Credential) -> Bool {
        lhs.token == rhs.token && lhs.headerName.lowercased() == rhs.headerName.lowercased()
    }

    public var description: String {
        let expiry = expiresAt.map { ", expires \($0)" } ?? ""
        return "Credential(\(headerName)\(expiry), token: <redacted>)"
    }

    /// Attaches the credential to a request, after checking that it can be sent legally.
    ///
    /// - Parameter request: The request to authorise.
    /// - Throws: ``AuthError/invalidCredential(reason:)`` for an empty token, or one holding a
    ///   character a header cannot carry.
    func authorize(_ request: inout HTTPRequest) throws(AuthError) {
        try validate()
        // Every field it sets stays with its origin: `Authorization` is dropped on a hop to
        // another origin by every redirect policy, so only the others are marked a credential
        // (`HTTPRequestContext.credentialFields`), which keeps the common bearer path free of a
        // context write per request.
        switch scheme {
        case .bearer:
            request.fields[.authorization] = headerValue
        case .header(let name):
            request.fields[name] = headerValue
            request.context.markCredential(HTTPField.Name(unchecked: name))
        case .custom(_, let apply):
            let before = request.fields
            apply(&request, token)
            for field in request.fields where before[values: field.name] != request.fields[values: field.name] {
                request.context.markCredential(field.name)
            }
        }
    }

    /// Checks the token: not empty, and for the built-in schemes visible ASCII only (no space,
    /// CR, LF or NUL), so it can never split or end a header.
    func validate() throws(AuthError) {
        if let problem { throw problem }
    }

    /// What is wrong with a token for a scheme, or `nil` when it can be sent.
    private static func problem(token: String, scheme: Scheme) -> AuthError? {
        guard !token.isEmpty else { return .invalidCredential(reason: "the token is empty") }
        let visibleASCII: (UInt8) -> Bool = { (0x21...0x7E).contains($0) }
        switch scheme {
        case .bearer, .header:
            guard token.utf8.allSatisfy(visibleASCII) else {
                return .invalidCredential(reason: "the token holds a character a header cannot carry")
            }
        case .custom:
            guard token.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else {
                return .invalidCredential(reason: "the token holds a control character")
            }
        }
        if case .header(let name) = scheme, name.isEmpty || !name.utf8.allSatisfy(visibleASCII) || name.contains(":") {
            return .invalidCredential(reason: "the header name is not a legal field name")
        }
        return nil
    }
}

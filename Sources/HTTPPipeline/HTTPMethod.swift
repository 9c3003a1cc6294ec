/// An HTTP request method, such as `GET` or `POST`, kept exactly as written: methods are
/// case-sensitive (RFC 9110 §9.1), so `"patch"` is not `PATCH`.
///
/// Use the static members for the standard methods, or a string literal for any other:
/// `let method: HTTPMethod = "PROPFIND"`. Shaped like swift-http-types' `HTTPRequest.Method`,
/// which ``HTTPRequest/Method`` names too.
///
/// A method must be a token (letters, digits and ``!#$%&'*+-.^_`|~``); both transports refuse to
/// send one that is not, with `HTTPTransportError.invalidRequest`, before anything is sent.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token, kept as written.
    ///
    /// - Parameter rawValue: The method token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from its token, or `nil` when it is not a valid token (as
    /// swift-http-types' `HTTPRequest.Method.init?(_:)`).
    ///
    /// - Parameter method: The method token, for example `"PATCH"`.
    public init?(_ method: String) {
        guard HTTPGrammar.isToken(method.utf8) else { return nil }
        self.rawValue = method
    }

    /// Creates a method from a string literal, for example `"PROPFIND"`.
    ///
    /// - Parameter value: The method token, kept as written.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The method token, for example `"GET"`.
    public var description: String { rawValue }

    /// Whether the method is a token that can go on the wire.
    package var isSendable: Bool { HTTPGrammar.isToken(rawValue.utf8) }

    /// `GET`: read a resource.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: read a resource's head without its body.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`: create a resource or run an action.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace a resource.
    public static let put: HTTPMethod = "PUT"
    /// `DELETE`: remove a resource.
    public static let delete: HTTPMethod = "DELETE"
    /// `CONNECT`: open a tunnel through a proxy.
    public static let connect: HTTPMethod = "CONNECT"
    /// `OPTIONS`: ask what a resource or server supports.
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`: have the request echoed back.
    public static let trace: HTTPMethod = "TRACE"
    /// `PATCH`: change part of a resource (RFC 5789).
    public static let patch: HTTPMethod = "PATCH"

    /// The methods RFC 9110 §9.2.2 defines as idempotent: sending one twice has the effect of
    /// sending it once (GET, HEAD, OPTIONS, TRACE, PUT, DELETE). Retry and hedging send these
    /// again without being told to.
    public static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .options, .trace, .put, .delete]

    /// Whether the method is one of ``idempotentMethods``.
    public var isIdempotent: Bool { Self.idempotentMethods.contains(self) }
}

extension HTTPRequest {
    /// The request method: swift-http-types' name for ``HTTPMethod``.
    public typealias Method = HTTPMethod
}

/// An HTTP request method, such as `GET` or `POST`, kept exactly as written: methods are
/// case-sensitive (RFC 9110 §9.1), so `"patch"` is not `PATCH`.
///
/// Use the static members for the standard methods, ``init(_:)`` for any other
/// (`HTTPMethod("PROPFIND")`, `nil` for a string that is not a token), or ``init(rawValue:)`` to
/// take a string as given. Shaped like swift-http-types' `HTTPRequest.Method`, which
/// ``HTTPRequest/Method`` names too.
///
/// A method must be a token (letters, digits and `!#$%&'*+-.^_|~` and the backtick); both
/// transports refuse to send one that is not, with `HTTPTransportError.invalidRequest`, before
/// anything is sent.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from a string taken as given, kept as written (a string that is not a
    /// token is refused by the transports before anything is sent).
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

    /// The method token, for example `"GET"`.
    public var description: String { rawValue }

    /// Checks that the method can go on the wire: the transports' one method check.
    ///
    /// - Throws: `HTTPTransportError.invalidRequest(reason:)` for a method that is not a token.
    package func checkSendable() throws(HTTPTransportError) {
        guard HTTPGrammar.isToken(rawValue.utf8) else {
            throw .invalidRequest(reason: "the method is not an HTTP token")
        }
    }

    /// `GET`: read a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: read a resource's head without its body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: create a resource or run an action.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `CONNECT`: open a tunnel through a proxy.
    public static let connect = HTTPMethod(rawValue: "CONNECT")
    /// `OPTIONS`: ask what a resource or server supports.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `TRACE`: have the request echoed back.
    public static let trace = HTTPMethod(rawValue: "TRACE")
    /// `PATCH`: change part of a resource (RFC 5789).
    public static let patch = HTTPMethod(rawValue: "PATCH")

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

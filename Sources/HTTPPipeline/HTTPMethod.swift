/// An HTTP request method, such as `GET` or `POST`.
///
/// Use the static members for the common methods, or a string literal for any other:
/// `let method: HTTPMethod = "PROPFIND"`.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token.
    ///
    /// - Parameter rawValue: The method token; sent upper-cased.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// Creates a method from a string literal, for example `"PATCH"`.
    ///
    /// - Parameter value: The method token; sent upper-cased.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The method token, for example `"GET"`.
    public var description: String { rawValue }

    /// `GET`: read a resource.
    public static let get: HTTPMethod = "GET"
    /// `POST`: create a resource or run an action.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace a resource.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: change part of a resource.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: remove a resource.
    public static let delete: HTTPMethod = "DELETE"
    /// `HEAD`: read a resource's head without its body.
    public static let head: HTTPMethod = "HEAD"

    /// The methods RFC 9110 §9.2.2 defines as idempotent: sending one twice has the effect of
    /// sending it once (GET, HEAD, OPTIONS, TRACE, PUT, DELETE). Retry and hedging send these
    /// again without being told to.
    public static let idempotentMethods: Set<HTTPMethod> = [.get, .head, "OPTIONS", "TRACE", .put, .delete]

    /// Whether the method is one of ``idempotentMethods``.
    public var isIdempotent: Bool { Self.idempotentMethods.contains(self) }
}

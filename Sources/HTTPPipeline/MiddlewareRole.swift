/// What a middleware does, as far as ordering is concerned: the name other middleware use to say
/// where they expect to sit relative to it.
///
/// The built-in plugins use the roles below; your own middleware may use them too, or new ones
/// (`"cache"`, `"signing"`: any string).
public struct MiddlewareRole: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The role's name, as diagnostics print it.
    public let name: String

    /// Creates a role.
    ///
    /// - Parameter name: The role's name.
    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { name }

    /// Adds default headers.
    public static let headers: MiddlewareRole = "headers"
    /// Records exchanges.
    public static let logging: MiddlewareRole = "logging"
    /// Attaches credentials and refreshes them.
    public static let auth: MiddlewareRole = "auth"
    /// Sends a request more than once.
    public static let retry: MiddlewareRole = "retry"
    /// Bounds the whole call below it with a deadline.
    public static let deadline: MiddlewareRole = "deadline"
    /// Bounds each attempt below it with a timeout.
    public static let attemptTimeout: MiddlewareRole = "attempt-timeout"
    /// Follows redirects: sends the call on to another URL, hop by hop.
    public static let redirects: MiddlewareRole = "redirects"
    /// Decodes response bodies (gzip, deflate).
    public static let decoding: MiddlewareRole = "decoding"
    /// Bounds how many requests are in flight below it.
    public static let concurrencyLimit: MiddlewareRole = "concurrency-limit"
    /// Stops sending to a failing service for a while.
    public static let circuitBreaker: MiddlewareRole = "circuit-breaker"
    /// Sends a second copy of a slow request and keeps the first good answer.
    public static let hedging: MiddlewareRole = "hedging"
    /// Changes the outgoing request in a way a log should show (headers, credentials).
    public static let changesRequest: MiddlewareRole = "request-changing"
}

/// Where a middleware expects to sit relative to the layers of some role.
public struct PlacementExpectation: Sendable, Equatable {
    /// Which side of the other layers this one expects to be on.
    public enum Side: Sendable, Equatable {
        /// Listed before them: sees the request before they do.
        case outside
        /// Listed after them: sees the request after they changed it.
        case inside
    }

    /// The side this middleware expects to be on.
    public let side: Side
    /// The role of the other layers.
    public let role: MiddlewareRole
    /// Why, in a sentence a diagnostic can show.
    public let reason: String

    /// This middleware expects to be listed before (outside) every layer with `role`.
    ///
    /// - Parameters:
    ///   - role: The other layers' role.
    ///   - reason: Why, for the diagnostic.
    /// - Returns: The expectation.
    public static func outside(_ role: MiddlewareRole, because reason: String) -> PlacementExpectation {
        PlacementExpectation(side: .outside, role: role, reason: reason)
    }

    /// This middleware expects to be listed after (inside) every layer with `role`.
    ///
    /// - Parameters:
    ///   - role: The other layers' role.
    ///   - reason: Why, for the diagnostic.
    /// - Returns: The expectation.
    public static func inside(_ role: MiddlewareRole, because reason: String) -> PlacementExpectation {
        PlacementExpectation(side: .inside, role: role, reason: reason)
    }
}

/// A middleware that takes part in ordering diagnostics: it says what roles it plays and where
/// it expects to sit relative to other roles.
///
/// ```swift
/// struct ResponseCache: HTTPMiddleware, PlacementDeclaring {
///     var roles: Set<MiddlewareRole> { ["cache"] }
///     var placementExpectations: [PlacementExpectation] {
///         [.inside(.auth, because: "cached responses are per user")]
///     }
///
///     func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
///         try await next(request)   // a real cache answers from its store when it can
///     }
/// }
/// ```
///
/// Expectations are advice: ``Pipeline/orderingDiagnostics`` reports the ones an order breaks,
/// and the pipeline still runs in the order you wrote.
public protocol PlacementDeclaring {
    /// The roles this middleware plays.
    var roles: Set<MiddlewareRole> { get }
    /// Where it expects to sit relative to other roles.
    var placementExpectations: [PlacementExpectation] { get }
}

extension PlacementDeclaring {
    /// No expectations of its own: the middleware only lends its roles to others' expectations.
    public var placementExpectations: [PlacementExpectation] { [] }
}

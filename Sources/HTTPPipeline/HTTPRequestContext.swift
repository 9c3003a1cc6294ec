/// A key of the per-request context: the key is the type itself, and `Value` is what it holds.
///
/// Declare one per setting your middleware reads, in your own module, so keys never collide:
///
/// ```swift
/// enum SkipRetry: HTTPContextKey {
///     typealias Value = Bool
/// }
///
/// var context = HTTPRequestContext()
/// context[SkipRetry.self] = true
/// let skips = context[SkipRetry.self] ?? false
/// ```
public protocol HTTPContextKey {
    /// What the key holds.
    associatedtype Value: Sendable
}

/// Typed values that travel with one request through every layer and every attempt: per-call
/// settings (no retry for this call, this timeout) and what one layer tells another.
///
/// Keyed by type (``HTTPContextKey``), like tower's `Extensions`. An empty context allocates
/// nothing and costs next to nothing to pass or look up; the first value set allocates one small
/// array (Documentation/CoreV2.md).
public struct HTTPRequestContext: Sendable {
    /// The values, in the order they were first set. An empty context allocates nothing, and
    /// copying one (every layer that changes a request copies it) retains one buffer.
    @usableFromInline var values = ContextValues()

    /// The 1-based number of the attempt this request is, set by the nearest retrying layer
    /// outside (`RetryMiddleware` numbers each call of `next` from 1), or `nil` outside any.
    ///
    /// It travels with the request, so layers inside the retrying one (logging, probes) can say
    /// which attempt they saw, and a request made anew inside an attempt (a token refresh through
    /// another pipeline) starts without one.
    ///
    /// ```swift
    /// struct RetryOnce503: HTTPMiddleware {
    ///     func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
    ///         var attempt = request
    ///         attempt.context.attempt = 1
    ///         let first = try await next(attempt)
    ///         guard first.status == .serviceUnavailable else { return first }
    ///         attempt.context.attempt = 2
    ///         return try await next(attempt)
    ///     }
    /// }
    /// ```
    public var attempt: Int?

    /// An empty context.
    @inlinable
    public init() {}

    /// The value stored under `key`, or `nil`; setting `nil` removes it.
    ///
    /// - Parameter key: The key type.
    @inlinable
    public subscript<Key: HTTPContextKey>(key: Key.Type) -> Key.Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// How many values the context holds.
    @inlinable
    public var count: Int { values.count }
}

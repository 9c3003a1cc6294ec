/// A layer that wraps the rest of a pipeline: it sees every request on its way out and every
/// response (or error) on its way back.
///
/// A middleware receives the request and `next`, the rest of the pipeline below it. It may change
/// the request, call `next` zero times (answer from a cache, fail early), once (the common case) or
/// many times (retry), and change the response or the error. It never holds a transport of its
/// own: the ``Pipeline`` wires `next`.
///
/// `next` is a non-escaping `@Sendable` closure: call it as often as you need while `intercept`
/// runs, from this task or from child tasks of a task group (through `withoutActuallyEscaping`),
/// but do not store it. That lets a layer race an attempt against a clock or start a second one,
/// and lets a pipeline built with ``MiddlewareBuilder`` compile into one inlined function with
/// nothing allocated per layer.
///
/// Write a middleware when the behaviour wraps the exchange (it changes requests or responses,
/// decides whether and how often to send); write an ``HTTPTransport`` when it moves the bytes.
///
/// ```swift
/// struct RequestStamp: HTTPMiddleware {
///     func intercept(
///         _ request: HTTPRequest,
///         next: HTTPNext
///     ) async throws -> HTTPResponse {
///         var request = request
///         request.fields["X-Request-ID"] = UUID().uuidString
///         return try await next(request)
///     }
/// }
/// ```
///
/// ## Ordering
/// The middleware listed first in a pipeline is the outermost: it sees the request first and the
/// response last. Each middleware's documentation says where it belongs and why.
///
/// Conforming types must be `Sendable`: one middleware value serves many concurrent requests, so
/// shared mutable state belongs in an actor or behind a lock.
public protocol HTTPMiddleware: Sendable {
    /// Handles one request by (usually) passing it on to `next`.
    ///
    /// - Parameters:
    ///   - request: The request as the layer above handed it down.
    ///   - next: The rest of the pipeline: the middleware below this one, then the transport.
    /// - Returns: The response body and head to hand back to the layer above.
    /// - Throws: Whatever `next` threw, unless this middleware's job is to change it, or an error
    ///   of its own.
    func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse

    /// The name this layer shows in a pipeline's ``Pipeline/description``.
    ///
    /// Defaults to the type's name; override it when one type appears in a pipeline more than
    /// once in different roles.
    var name: String { get }
}

/// The rest of a pipeline, as a middleware receives it: sends a request through every layer below
/// and the transport, and returns the response.
///
/// Used as a parameter type it is non-escaping: call it, as often as needed, but do not keep it.
public typealias HTTPNext = @Sendable (HTTPRequest) async throws -> HTTPResponse

extension HTTPMiddleware {
    /// The type's name, for example `"RequestStamp"`.
    public var name: String { String(describing: Self.self) }
}

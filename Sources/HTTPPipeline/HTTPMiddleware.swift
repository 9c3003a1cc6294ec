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

    /// This layer bound to the rest of a chain: what the array form of ``Pipeline``, and a block
    /// that binds when built (``_bindsWhenBuilt``), fold their layers into, once, when the
    /// pipeline is built.
    ///
    /// Not API: the builder's composites implement it to fold a block, and this package's
    /// plugins to be bound in their own module. Its default, as this protocol's requirement, is
    /// compiled for each conforming type, so that the closure a layer held as
    /// `any HTTPMiddleware` is folded into calls that type's `intercept` directly: one async call
    /// less per layer and request. Compiled in the caller's module, that closure cannot inline an
    /// `intercept` that lives in another module; a plugin therefore writes the same closure,
    /// `{ request in try await intercept(request, next: next) }`, in its own module, with its
    /// `intercept` marked `@inline(__always)`, one async frame fewer again (the standard stack
    /// 28,155 -> 27,368 instructions a request; calling the core's closure from there instead
    /// measured 440 more; Documentation/Performance.md).
    func _bound(to next: @escaping HTTPNext) -> HTTPNext

    /// Whether a ``Pipeline`` built from a block that holds this layer binds each layer once
    /// (``_bound(to:)``) instead of composing the block into one chain.
    ///
    /// `false` by default; `true` for this package's plugins, `MiddlewareStack` and a layer
    /// called through an existential; a composite (two layers in a row, an optional, an
    /// `if`/`else`, a `for` loop) when any part is. A block of layers from the user's own module
    /// is composed and inlined into one function (about 2 ns a layer); a plugin's `intercept`
    /// lives in its own module and cannot be inlined there, and in a composed block it costs
    /// three or four async calls (the pair, its `next` closure, an optional, the layer), where
    /// bound it costs one, and a layer left out costs nothing. A run of the user's own layers
    /// inside a block that binds stays one composed, inlined closure. A middleware shipped in a
    /// library module of its own, without `@inlinable` code, gains the same by returning `true`;
    /// the behaviour of a pipeline does not depend on it.
    static var _bindsWhenBuilt: Bool { get }
}

/// The rest of a pipeline, as a middleware receives it: sends a request through every layer below
/// and the transport, and returns the response.
///
/// Used as a parameter type it is non-escaping: call it, as often as needed, but do not keep it.
public typealias HTTPNext = @Sendable (HTTPRequest) async throws -> HTTPResponse

extension HTTPMiddleware {
    /// The type's name, for example `"RequestStamp"`.
    public var name: String { String(describing: Self.self) }

    /// `false`: a layer of the user's own is inlined into a composed block.
    @inlinable
    public static var _bindsWhenBuilt: Bool { false }

    /// `intercept` with `next` bound, compiled for this type.
    @inlinable
    public func _bound(to next: @escaping HTTPNext) -> HTTPNext {
        interceptBound(to: next)
    }

    /// One closure that calls this value's `intercept` with `next`: a layer's own binding, and a
    /// composite's when it holds no plugin (its layers then stay composed and inlined in it).
    @inlinable
    func interceptBound(to next: @escaping HTTPNext) -> HTTPNext {
        { request in try await intercept(request, next: next) }
    }
}

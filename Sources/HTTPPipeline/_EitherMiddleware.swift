/// One of two layers, chosen by an `if`/`else` when the pipeline was built.
///
/// An implementation detail of ``MiddlewareBuilder``, public only because the builder's result
/// types must be, and `@inlinable` so that a pipeline specialises; not API. DocC hides it.
public enum _EitherMiddleware<First: HTTPMiddleware, Second: HTTPMiddleware>: HTTPMiddleware, _LayerComposite {
    case first(First)
    case second(Second)

    @inlinable
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        switch self {
        case .first(let middleware): try await middleware.intercept(request, next: next)
        case .second(let middleware): try await middleware.intercept(request, next: next)
        }
    }

    /// Bound when either branch is.
    @inlinable
    public static var _bindsWhenBuilt: Bool { First._bindsWhenBuilt || Second._bindsWhenBuilt }

    /// The chosen branch bound to `next`.
    @inlinable
    public func _bound(to next: @escaping HTTPNext) -> HTTPNext {
        // A run of the user's own layers stays one composed, inlined closure.
        guard Self._bindsWhenBuilt else { return interceptBound(to: next) }
        switch self {
        case .first(let middleware): return middleware._bound(to: next)
        case .second(let middleware): return middleware._bound(to: next)
        }
    }

    var _layers: [any HTTPMiddleware] {
        switch self {
        case .first(let middleware): layers(of: middleware)
        case .second(let middleware): layers(of: middleware)
        }
    }
}

extension _EitherMiddleware: _ComposedWhenBuilt {
    /// The chosen branch over `transport`: the choice is made here, once, so a request through a
    /// pipeline whose whole block is an `if`/`else` pays for no switch and no copy of the branch.
    @inlinable
    public func _composed<Transport: HTTPTransport>(
        over transport: Transport
    ) -> @Sendable (HTTPRequest) async throws -> HTTPResponse {
        switch self {
        case .first(let middleware):
            { request in try await middleware.intercept(request) { request in try await transport.send(request) } }
        case .second(let middleware):
            { request in try await middleware.intercept(request) { request in try await transport.send(request) } }
        }
    }
}

/// A layer that composes itself over a transport when the pipeline is built, rather than deciding
/// something on every request: an `if`/`else` block picks its branch once.
///
/// An implementation detail of ``Pipeline``, public only because its inlinable initialiser uses
/// it; not API. DocC hides it.
public protocol _ComposedWhenBuilt {
    /// The whole chain below and including this layer, bound to `transport`.
    func _composed<Transport: HTTPTransport>(
        over transport: Transport
    ) -> @Sendable (HTTPRequest) async throws -> HTTPResponse
}

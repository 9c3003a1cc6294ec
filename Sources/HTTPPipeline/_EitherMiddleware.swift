/// One of two layers, chosen by an `if`/`else` when the pipeline was built.
///
/// An implementation detail of ``MiddlewareBuilder``, public only because the builder's result
/// types must be, and `@inlinable` so that a pipeline specialises; not API. DocC hides it.
public enum _EitherMiddleware<First: HTTPMiddleware, Second: HTTPMiddleware>: HTTPMiddleware, LayerComposite {
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

    var flattenedLayers: [any HTTPMiddleware] {
        switch self {
        case .first(let middleware): layers(of: middleware)
        case .second(let middleware): layers(of: middleware)
        }
    }
}

extension _EitherMiddleware: BindsWhenBuilt {
    /// Bound when either branch is.
    @inlinable
    package static var bindsWhenBuilt: Bool {
        HTTPPipeline.bindsWhenBuilt(First.self) || HTTPPipeline.bindsWhenBuilt(Second.self)
    }

    /// The chosen branch bound to `next`.
    @inlinable
    package func bound(to next: @escaping HTTPNext) -> HTTPNext {
        // A run of the user's own layers stays one composed, inlined closure.
        guard Self.bindsWhenBuilt else { return composedBound(to: next) }
        switch self {
        case .first(let middleware): return bind(middleware, to: next)
        case .second(let middleware): return bind(middleware, to: next)
        }
    }
}

extension _EitherMiddleware: ComposedWhenBuilt {
    /// The chosen branch over `transport`: the choice is made here, once, so a request through a
    /// pipeline whose whole block is an `if`/`else` pays for no switch and no copy of the branch.
    @inlinable
    package func composed<Transport: HTTPTransport>(
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
/// something on every request: an `if`/`else` block picks its branch once. Package machinery used
/// by ``Pipeline``'s inlinable initialiser.
@usableFromInline
package protocol ComposedWhenBuilt {
    /// The whole chain below and including this layer, bound to `transport`.
    func composed<Transport: HTTPTransport>(
        over transport: Transport
    ) -> @Sendable (HTTPRequest) async throws -> HTTPResponse
}

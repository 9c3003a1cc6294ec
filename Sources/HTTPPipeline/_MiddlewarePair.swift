/// Two layers, `outer` wrapping `inner`: what ``MiddlewareBuilder`` makes of two lines in a row.
///
/// An implementation detail of ``MiddlewareBuilder``, public only because the builder's result
/// types must be, and `@inlinable` so that a pipeline specialises; not API. DocC hides it.
public struct _MiddlewarePair<Outer: HTTPMiddleware, Inner: HTTPMiddleware>: HTTPMiddleware, LayerComposite {
    @usableFromInline let outer: Outer
    @usableFromInline let inner: Inner

    @usableFromInline
    init(outer: Outer, inner: Inner) {
        self.outer = outer
        self.inner = inner
    }

    @inlinable
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        try await outer.intercept(request) { request in
            try await inner.intercept(request, next: next)
        }
    }

    var flattenedLayers: [any HTTPMiddleware] { layers(of: outer) + layers(of: inner) }
}

extension _MiddlewarePair: BindsWhenBuilt {
    /// Bound when either side is.
    @inlinable
    package static var bindsWhenBuilt: Bool {
        HTTPPipeline.bindsWhenBuilt(Outer.self) || HTTPPipeline.bindsWhenBuilt(Inner.self)
    }

    /// The inner layer bound to `next`, then the outer one bound to that: one closure per
    /// layer, the pair itself gone.
    @inlinable
    package func bound(to next: @escaping HTTPNext) -> HTTPNext {
        // A run of the user's own layers stays one composed, inlined closure.
        guard Self.bindsWhenBuilt else { return composedBound(to: next) }
        return bind(outer, to: bind(inner, to: next))
    }
}

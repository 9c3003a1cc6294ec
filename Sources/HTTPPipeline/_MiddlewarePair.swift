/// Two layers, `outer` wrapping `inner`: what ``MiddlewareBuilder`` makes of two lines in a row.
///
/// An implementation detail of ``MiddlewareBuilder``, public only because the builder's result
/// types must be, and `@inlinable` so that a pipeline specialises; not API. DocC hides it.
public struct _MiddlewarePair<Outer: HTTPMiddleware, Inner: HTTPMiddleware>: HTTPMiddleware, _LayerComposite {
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

    /// Bound when either side is.
    @inlinable
    public static var _bindsWhenBuilt: Bool { Outer._bindsWhenBuilt || Inner._bindsWhenBuilt }

    /// The inner layer bound to `next`, then the outer one bound to that: one closure per
    /// layer, the pair itself gone.
    @inlinable
    public func _bound(to next: @escaping HTTPNext) -> HTTPNext {
        // A run of the user's own layers stays one composed, inlined closure.
        guard Self._bindsWhenBuilt else { return interceptBound(to: next) }
        return outer._bound(to: inner._bound(to: next))
    }

    var _layers: [any HTTPMiddleware] { layers(of: outer) + layers(of: inner) }
}

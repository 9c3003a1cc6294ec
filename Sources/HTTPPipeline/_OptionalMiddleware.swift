/// A layer that may be absent (`if` without `else`, `if let`, or an optional value): when `nil`
/// the request goes straight to `next`.
///
/// An implementation detail of ``MiddlewareBuilder``, public only because the builder's result
/// types must be, and `@inlinable` so that a pipeline specialises; not API. DocC hides it.
public struct _OptionalMiddleware<Wrapped: HTTPMiddleware>: HTTPMiddleware, LayerComposite {
    @usableFromInline let wrapped: Wrapped?

    @usableFromInline
    init(_ wrapped: Wrapped?) {
        self.wrapped = wrapped
    }

    @inlinable
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        guard let wrapped else { return try await next(request) }
        return try await wrapped.intercept(request, next: next)
    }

    var flattenedLayers: [any HTTPMiddleware] { wrapped.map { layers(of: $0) } ?? [] }
}

extension _OptionalMiddleware: BindsWhenBuilt {
    /// Bound when the wrapped layer is.
    @inlinable
    package static var bindsWhenBuilt: Bool { HTTPPipeline.bindsWhenBuilt(Wrapped.self) }

    /// The wrapped layer bound to `next`; when there is none, `next` itself: a layer left out
    /// costs nothing.
    @inlinable
    package func bound(to next: @escaping HTTPNext) -> HTTPNext {
        // No `??` and no optional closure: a function value passed through a generic is
        // reabstracted, a thunk of two async calls more on every request.
        guard Self.bindsWhenBuilt else { return composedBound(to: next) }
        guard let wrapped else { return next }
        return bind(wrapped, to: next)
    }
}

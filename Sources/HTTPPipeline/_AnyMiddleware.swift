/// A middleware whose concrete type is known only at run time.
///
/// An implementation detail of ``MiddlewareBuilder`` and ``MiddlewareStack``, public only because
/// their result types must be, and `@inlinable` so that a pipeline specialises; not API. DocC
/// hides it.
public struct _AnyMiddleware: HTTPMiddleware, LayerComposite, BindsWhenBuilt {
    @usableFromInline let base: any HTTPMiddleware

    @usableFromInline
    init(_ base: any HTTPMiddleware) {
        self.base = base
    }

    @inlinable
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        try await base.intercept(request, next: next)
    }

    /// The wrapped layer's own binding, compiled for its type (it binds: called through an
    /// existential, nothing would inline it).
    @inlinable
    package func bound(to next: @escaping HTTPNext) -> HTTPNext { bind(base, to: next) }

    var flattenedLayers: [any HTTPMiddleware] { HTTPPipeline.layers(of: base) }
}

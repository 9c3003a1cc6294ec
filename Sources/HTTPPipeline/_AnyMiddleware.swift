/// A middleware whose concrete type is known only at run time.
///
/// An implementation detail of ``MiddlewareBuilder`` and ``MiddlewareStack``, public only because
/// their result types must be, and `@inlinable` so that a pipeline specialises; not API. DocC
/// hides it.
public struct _AnyMiddleware: HTTPMiddleware, _LayerComposite {
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

    /// `true`: called through an existential, which nothing inlines.
    @inlinable
    public static var _bindsWhenBuilt: Bool { true }

    /// The wrapped layer's own binding, compiled for its type.
    @inlinable
    public func _bound(to next: @escaping HTTPNext) -> HTTPNext { base._bound(to: next) }

    var _layers: [any HTTPMiddleware] { HTTPPipeline.layers(of: base) }
}

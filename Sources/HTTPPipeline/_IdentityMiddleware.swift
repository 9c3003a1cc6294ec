/// No layer at all: what an empty builder block produces. Passes every request to `next`.
///
/// An implementation detail of ``MiddlewareBuilder``, public only because the builder's result
/// types must be, and `@inlinable` so that a pipeline specialises; not API. DocC hides it.
public struct _IdentityMiddleware: HTTPMiddleware, _LayerComposite {
    @usableFromInline
    init() {}

    @inlinable
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        try await next(request)
    }

    /// `next` itself.
    @inlinable
    public func _bound(to next: @escaping HTTPNext) -> HTTPNext { next }

    var _layers: [any HTTPMiddleware] { [] }
}

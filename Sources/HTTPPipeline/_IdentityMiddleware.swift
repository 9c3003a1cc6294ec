/// No layer at all: what an empty builder block produces. Passes every request to `next`.
///
/// An implementation detail of ``MiddlewareBuilder``, public only because the builder's result
/// types must be, and `@inlinable` so that a pipeline specialises; not API. DocC hides it.
public struct _IdentityMiddleware: HTTPMiddleware, LayerComposite {
    @usableFromInline
    init() {}

    @inlinable
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        try await next(request)
    }

    var flattenedLayers: [any HTTPMiddleware] { [] }
}

extension _IdentityMiddleware: BindsWhenBuilt {
    /// Nothing to bind: an empty block composes.
    @inlinable
    package static var bindsWhenBuilt: Bool { false }

    /// `next` itself.
    @inlinable
    package func bound(to next: @escaping HTTPNext) -> HTTPNext { next }
}

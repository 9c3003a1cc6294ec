/// A layer that may be absent (`if` without `else`, `if let`, or an optional value): when `nil`
/// the request goes straight to `next`.
///
/// An implementation detail of ``MiddlewareBuilder``, public only because the builder's result
/// types must be, and `@inlinable` so that a pipeline specialises; not API. DocC hides it.
public struct _OptionalMiddleware<Wrapped: HTTPMiddleware>: HTTPMiddleware, _LayerComposite {
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

    var _layers: [any HTTPMiddleware] { wrapped.map { layers(of: $0) } ?? [] }
}

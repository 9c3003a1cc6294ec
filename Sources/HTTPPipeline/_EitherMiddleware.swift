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

    var _layers: [any HTTPMiddleware] {
        switch self {
        case .first(let middleware): layers(of: middleware)
        case .second(let middleware): layers(of: middleware)
        }
    }
}

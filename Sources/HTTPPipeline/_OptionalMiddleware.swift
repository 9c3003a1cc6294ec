public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A layer that may be absent (`if` without `else`, `if let`, or an optional value): when `nil`
/// the request goes straight to `next`.
public struct _OptionalMiddleware<Wrapped: HTTPMiddleware>: HTTPMiddleware, _LayerComposite {
    @usableFromInline let wrapped: Wrapped?

    @usableFromInline
    init(_ wrapped: Wrapped?) {
        self.wrapped = wrapped
    }

    @inlinable
    public func intercept(
        _ request: URLRequest,
        next: HTTPNext
    ) async throws -> (Data, HTTPURLResponse) {
        guard let wrapped else { return try await next(request) }
        return try await wrapped.intercept(request, next: next)
    }

    var _layers: [any HTTPMiddleware] { wrapped.map { layers(of: $0) } ?? [] }
}

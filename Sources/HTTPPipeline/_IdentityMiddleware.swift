public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// No layer at all: what an empty builder block produces. Passes every request to `next`.
public struct _IdentityMiddleware: HTTPMiddleware, _LayerNaming {
    @usableFromInline
    init() {}

    @inlinable
    public func intercept(
        _ request: URLRequest,
        next: HTTPNext
    ) async throws -> (Data, HTTPURLResponse) {
        try await next(request)
    }

    var _layerNames: [String] { [] }
}

public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// No layer at all: what an empty builder block produces. Passes every request to `next`.
public struct _IdentityMiddleware: HTTPMiddleware, _LayerNaming {
    init() {}

    @inlinable
    public func intercept(
        _ request: URLRequest,
        next: some HTTPTransport
    ) async throws -> (Data, HTTPURLResponse) {
        try await next.send(request)
    }

    var _layerNames: [String] { [] }
}

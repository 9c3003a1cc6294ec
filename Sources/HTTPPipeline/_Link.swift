public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// One middleware bound to the rest of the pipeline: the `next` a middleware above it receives.
///
/// Created on the stack for each request; it holds two values and allocates nothing.
public struct _Link<Middleware: HTTPMiddleware, Next: HTTPTransport>: HTTPTransport {
    @usableFromInline let middleware: Middleware
    @usableFromInline let next: Next

    @inlinable
    init(middleware: Middleware, next: Next) {
        self.middleware = middleware
        self.next = next
    }

    @inlinable
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await middleware.intercept(request, next: next)
    }
}

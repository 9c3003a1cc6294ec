public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// An ordered stack of middleware over a transport, itself usable as an ``HTTPTransport``.
///
/// **The first middleware listed is the outermost: it sees the request first and the response
/// last.** With layers `A`, `B`, `C` over a transport `T`:
///
/// ```
/// request  ──▶ A ──▶ B ──▶ C ──▶ T
/// response ◀── A ◀── B ◀── C ◀──┘
/// ```
///
/// Build it from code with a ``MiddlewareBuilder`` block, or from an array assembled at run time:
///
/// ```swift
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     RequestStamp()
///     TimingLog()
/// }
/// let (data, response) = try await pipeline.send(request)
/// print(pipeline)   // Pipeline(RequestStamp -> TimingLog -> URLSessionTransport)
/// ```
///
/// The chain is composed once, when the pipeline is built; sending a request allocates nothing
/// for the chain itself.
public struct Pipeline<Middleware: HTTPMiddleware, Transport: HTTPTransport>: HTTPTransport {
    /// The layers, outermost first, as one composed middleware.
    public let middleware: Middleware
    /// The transport at the bottom of the pipeline.
    public let transport: Transport

    /// Builds a pipeline from a block of middleware, the first line outermost.
    ///
    /// - Parameters:
    ///   - transport: The transport the innermost layer hands requests to.
    ///   - middleware: The layers, one per line, outermost first.
    public init(transport: Transport, @MiddlewareBuilder _ middleware: () -> Middleware) {
        self.transport = transport
        self.middleware = middleware()
    }

    /// Sends a request through every layer, outermost first, then the transport.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response as the outermost layer hands it back.
    /// - Throws: Whatever a layer or the transport threw and no outer layer handled.
    @inlinable
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await middleware.intercept(request, next: transport)
    }
}

extension Pipeline where Middleware == _MiddlewareArray<_AnyMiddleware> {
    /// Builds a pipeline from an array of middleware assembled at run time, the first element
    /// outermost.
    ///
    /// - Parameters:
    ///   - transport: The transport the innermost layer hands requests to.
    ///   - middleware: The layers, outermost first. An empty array sends straight to `transport`.
    public init(transport: Transport, middleware: [any HTTPMiddleware]) {
        self.transport = transport
        self.middleware = _MiddlewareArray(middleware.map(_AnyMiddleware.init))
    }
}

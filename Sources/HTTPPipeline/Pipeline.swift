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
/// let response = try await pipeline.send(request)
/// print(response.status, pipeline)   // 200 Pipeline(RequestStamp -> TimingLog -> URLSessionTransport)
/// ```
///
/// The chain is composed once, when the pipeline is built; sending a request allocates nothing
/// for the chain itself.
public struct Pipeline<Middleware: HTTPMiddleware, Transport: HTTPTransport>: HTTPTransport {
    /// The layers, outermost first, as one composed middleware.
    public let middleware: Middleware
    /// The transport at the bottom of the pipeline.
    public let transport: Transport
    /// The whole chain, composed once. The closure is created where `Pipeline` is initialised,
    /// with the concrete layer types in view, so its body is the specialised, inlined chain even
    /// when the pipeline is later used only as `any HTTPTransport` (where a call would otherwise
    /// run the unspecialised generic code, dispatching through witness tables at every hop). A
    /// block that holds one of this package's plugins is folded instead into one closure per
    /// layer present, each compiled for its layer's type (`BindsWhenBuilt`).
    @usableFromInline let composed: @Sendable (HTTPRequest) async throws -> HTTPResponse
    /// Whether every layer and the transport keep a cut deadline (``KeepsDeadline``): then a
    /// deadline layer of a pipeline around this one need not race it.
    @usableFromInline var keepsCutDeadline = false

    /// Builds a pipeline from a block of middleware, the first line outermost.
    ///
    /// - Parameters:
    ///   - transport: The transport the innermost layer hands requests to.
    ///   - middleware: The layers, one per line, outermost first. It may throw, for middleware
    ///     whose initialiser checks its configuration.
    /// - Throws: What `middleware` throws.
    @inlinable
    public init(transport: Transport, @MiddlewareBuilder _ middleware: () throws -> Middleware) rethrows {
        self.init(composing: try middleware(), over: transport)
    }

    @inlinable
    init(composing middleware: Middleware, over transport: Transport) {
        self.middleware = middleware
        self.transport = transport
        if bindsWhenBuilt(Middleware.self) {
            // Plugins from other modules: one closure per layer present, bound here.
            let (composed, keeps) = DeadlineBinding.binding(over: transport) {
                bind(middleware, to: { request in try await transport.send(request) })
            }
            self.composed = composed
            self.keepsCutDeadline = keeps
        } else if let chosen = middleware as? any ComposedWhenBuilt {
            self.composed = chosen.composed(over: transport)
        } else {
            self.composed = { request in
                try await middleware.intercept(request) { request in try await transport.send(request) }
            }
        }
    }

    /// Sends a request through every layer, outermost first, then the transport.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response as the outermost layer hands it back.
    /// - Throws: Whatever a layer or the transport threw and no outer layer handled.
    @inlinable
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await composed(request)
    }
}

extension Pipeline where Middleware == MiddlewareStack {
    /// Builds a pipeline from an array of middleware assembled at run time, the first element
    /// outermost.
    ///
    /// The array is folded once, here, into a chain of closures bound to `transport`, each
    /// compiled for its layer's type: a request then makes no call through an existential and
    /// allocates nothing.
    ///
    /// - Parameters:
    ///   - transport: The transport the innermost layer hands requests to.
    ///   - middleware: The layers, outermost first. An empty array sends straight to `transport`.
    @inlinable
    public init(transport: Transport, middleware: [any HTTPMiddleware]) {
        self.middleware = MiddlewareStack(middleware)
        self.transport = transport
        var chain: @Sendable (HTTPRequest) async throws -> HTTPResponse = { request in
            try await transport.send(request)
        }
        let (composed, keeps) = DeadlineBinding.binding(over: transport) {
            for layer in middleware.reversed() {
                chain = bind(layer, to: chain)
            }
            return chain
        }
        self.composed = composed
        self.keepsCutDeadline = keeps
    }
}

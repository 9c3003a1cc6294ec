import HTTPPipeline

/// Answers every request from memory with one prepared response: the transport costs next to
/// nothing, so what is measured is the chain.
struct InMemoryTransport: HTTPTransport {
    let response: HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        response
    }
}

/// The same, saying it keeps a cut deadline (it answers at once, so it trivially does): a
/// deadline above it cuts without a race, as one above `CurlTransport` does.
struct DeadlineKeepingInMemoryTransport: HTTPTransport, KeepsDeadline {
    let response: HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        response
    }
}

/// A middleware that does nothing but call `next`: the cost of one hop and nothing else.
struct NoOp: HTTPMiddleware {
    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        try await next(request)
    }
}

/// The baseline's middleware shape: `next` is a closure, as in runtimes that fold the middleware
/// list into nested closures.
protocol ClosureMiddleware: Sendable {
    func intercept(
        _ request: HTTPRequest,
        next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse
}

struct ClosureNoOp: ClosureMiddleware {
    func intercept(
        _ request: HTTPRequest,
        next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        try await next(request)
    }
}

/// The baseline: each request wraps the middleware list into fresh nested closures, innermost
/// first, then calls the outermost (the way swift-openapi-runtime's client builds its chain).
struct ClosureFoldingClient: HTTPTransport {
    let middlewares: [any ClosureMiddleware]
    let transport: InMemoryTransport

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transport = self.transport
        var next: @Sendable (HTTPRequest) async throws -> HTTPResponse = {
            try await transport.send($0)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { try await middleware.intercept($0, next: inner) }
        }
        return try await next(request)
    }
}

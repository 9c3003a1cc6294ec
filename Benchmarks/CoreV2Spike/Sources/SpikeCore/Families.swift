public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

// Each family: a middleware protocol with one `intercept`, a pair that nests two layers exactly as
// Sources/HTTPPipeline/_MiddlewarePair.swift does, a transport protocol, and a pipeline
// that captures the specialised chain once in a @Sendable closure (as the package's Pipeline does).

public typealias URLResult = (Data, HTTPURLResponse)
public typealias LightResult = (Data, HTTPResponseHead)

// MARK: 1. Heads as URLRequest / HTTPURLResponse, request by value (today's contract)

public protocol URLMiddleware: Sendable {
    func intercept(_ request: URLRequest, next: (URLRequest) async throws -> URLResult) async throws -> URLResult
}
public protocol URLTransport: Sendable {
    func send(_ request: URLRequest) async throws -> URLResult
}
public struct URLPair<Outer: URLMiddleware, Inner: URLMiddleware>: URLMiddleware {
    @usableFromInline let outer: Outer
    @usableFromInline let inner: Inner
    @inlinable public init(_ outer: Outer, _ inner: Inner) {
        self.outer = outer
        self.inner = inner
    }
    @inlinable
    public func intercept(_ request: URLRequest, next: (URLRequest) async throws -> URLResult) async throws -> URLResult
    {
        try await outer.intercept(request) { request in try await inner.intercept(request, next: next) }
    }
}
public struct URLPipeline: Sendable {
    @usableFromInline let composed: @Sendable (URLRequest) async throws -> URLResult
    @inlinable public init<M: URLMiddleware, T: URLTransport>(_ middleware: M, over transport: T) {
        composed = { request in try await middleware.intercept(request) { request in try await transport.send(request) }
        }
    }
    @inlinable public func send(_ request: URLRequest) async throws -> URLResult { try await composed(request) }
}

// MARK: 1b. URLRequest, consuming (bonus: what Performance.md left for later)

public protocol URLMiddlewareConsuming: Sendable {
    func intercept(_ request: consuming URLRequest, next: (consuming URLRequest) async throws -> URLResult) async throws
        -> URLResult
}
public struct URLPairConsuming<Outer: URLMiddlewareConsuming, Inner: URLMiddlewareConsuming>: URLMiddlewareConsuming {
    @usableFromInline let outer: Outer
    @usableFromInline let inner: Inner
    @inlinable public init(_ outer: Outer, _ inner: Inner) {
        self.outer = outer
        self.inner = inner
    }
    @inlinable
    public func intercept(_ request: consuming URLRequest, next: (consuming URLRequest) async throws -> URLResult)
        async throws -> URLResult
    {
        try await outer.intercept(request) { (request: consuming URLRequest) in
            try await inner.intercept(request, next: next)
        }
    }
}
public struct URLPipelineConsuming: Sendable {
    @usableFromInline let composed: @Sendable (consuming URLRequest) async throws -> URLResult
    @inlinable public init<M: URLMiddlewareConsuming, T: URLTransport>(_ middleware: M, over transport: T) {
        composed = { (request: consuming URLRequest) in
            try await middleware.intercept(request) { (request: consuming URLRequest) in
                try await transport.send(request)
            }
        }
    }
    @inlinable public func send(_ request: consuming URLRequest) async throws -> URLResult {
        try await composed(request)
    }
}

// MARK: 2. Light heads, request by value

public protocol HeadMiddleware: Sendable {
    func intercept(_ request: HTTPRequestHead, next: (HTTPRequestHead) async throws -> LightResult) async throws
        -> LightResult
}
public protocol HeadTransport: Sendable {
    func send(_ request: HTTPRequestHead) async throws -> LightResult
}
public struct HeadPair<Outer: HeadMiddleware, Inner: HeadMiddleware>: HeadMiddleware {
    @usableFromInline let outer: Outer
    @usableFromInline let inner: Inner
    @inlinable public init(_ outer: Outer, _ inner: Inner) {
        self.outer = outer
        self.inner = inner
    }
    @inlinable
    public func intercept(_ request: HTTPRequestHead, next: (HTTPRequestHead) async throws -> LightResult) async throws
        -> LightResult
    {
        try await outer.intercept(request) { request in try await inner.intercept(request, next: next) }
    }
}
public struct HeadPipeline: Sendable {
    @usableFromInline let composed: @Sendable (HTTPRequestHead) async throws -> LightResult
    @inlinable public init<M: HeadMiddleware, T: HeadTransport>(_ middleware: M, over transport: T) {
        composed = { request in try await middleware.intercept(request) { request in try await transport.send(request) }
        }
    }
    @inlinable public func send(_ request: HTTPRequestHead) async throws -> LightResult { try await composed(request) }
}

// MARK: 3a. Light heads, request `borrowing` (explicit copies required)

public protocol HeadMiddlewareBorrowing: Sendable {
    func intercept(_ request: borrowing HTTPRequestHead, next: (borrowing HTTPRequestHead) async throws -> LightResult)
        async throws -> LightResult
}
public struct HeadPairBorrowing<Outer: HeadMiddlewareBorrowing, Inner: HeadMiddlewareBorrowing>: HeadMiddlewareBorrowing
{
    @usableFromInline let outer: Outer
    @usableFromInline let inner: Inner
    @inlinable public init(_ outer: Outer, _ inner: Inner) {
        self.outer = outer
        self.inner = inner
    }
    @inlinable
    public func intercept(
        _ request: borrowing HTTPRequestHead, next: (borrowing HTTPRequestHead) async throws -> LightResult
    ) async throws -> LightResult {
        try await outer.intercept(request) { (request: borrowing HTTPRequestHead) in
            try await inner.intercept(request, next: next)
        }
    }
}
public struct HeadPipelineBorrowing: Sendable {
    @usableFromInline let composed: @Sendable (borrowing HTTPRequestHead) async throws -> LightResult
    @inlinable public init<M: HeadMiddlewareBorrowing, T: HeadTransport>(_ middleware: M, over transport: T) {
        composed = { (request: borrowing HTTPRequestHead) in
            try await middleware.intercept(request) { (request: borrowing HTTPRequestHead) in
                try await transport.send(copy request)
            }
        }
    }
    @inlinable public func send(_ request: borrowing HTTPRequestHead) async throws -> LightResult {
        try await composed(request)
    }
}

// MARK: 3b. Light heads, request `consuming`

public protocol HeadMiddlewareConsuming: Sendable {
    func intercept(_ request: consuming HTTPRequestHead, next: (consuming HTTPRequestHead) async throws -> LightResult)
        async throws -> LightResult
}
public protocol HeadTransportConsuming: Sendable {
    func send(_ request: consuming HTTPRequestHead) async throws -> LightResult
}
public struct HeadPairConsuming<Outer: HeadMiddlewareConsuming, Inner: HeadMiddlewareConsuming>: HeadMiddlewareConsuming
{
    @usableFromInline let outer: Outer
    @usableFromInline let inner: Inner
    @inlinable public init(_ outer: Outer, _ inner: Inner) {
        self.outer = outer
        self.inner = inner
    }
    @inlinable
    public func intercept(
        _ request: consuming HTTPRequestHead, next: (consuming HTTPRequestHead) async throws -> LightResult
    ) async throws -> LightResult {
        try await outer.intercept(request) { (request: consuming HTTPRequestHead) in
            try await inner.intercept(request, next: next)
        }
    }
}
public struct HeadPipelineConsuming: Sendable {
    @usableFromInline let composed: @Sendable (consuming HTTPRequestHead) async throws -> LightResult
    @inlinable public init<M: HeadMiddlewareConsuming, T: HeadTransportConsuming>(_ middleware: M, over transport: T) {
        composed = { (request: consuming HTTPRequestHead) in
            try await middleware.intercept(request) { (request: consuming HTTPRequestHead) in
                try await transport.send(request)
            }
        }
    }
    @inlinable public func send(_ request: consuming HTTPRequestHead) async throws -> LightResult {
        try await composed(request)
    }
}

// MARK: 4. Light heads, `next` is a @Sendable non-escaping closure

public typealias SendableNext = @Sendable (HTTPRequestHead) async throws -> LightResult

public protocol SendableHeadMiddleware: Sendable {
    func intercept(_ request: HTTPRequestHead, next: SendableNext) async throws -> LightResult
}
public struct SendablePair<Outer: SendableHeadMiddleware, Inner: SendableHeadMiddleware>: SendableHeadMiddleware {
    @usableFromInline let outer: Outer
    @usableFromInline let inner: Inner
    @inlinable public init(_ outer: Outer, _ inner: Inner) {
        self.outer = outer
        self.inner = inner
    }
    @inlinable
    public func intercept(_ request: HTTPRequestHead, next: SendableNext) async throws -> LightResult {
        try await outer.intercept(request) { request in try await inner.intercept(request, next: next) }
    }
}
public struct SendablePipeline: Sendable {
    @usableFromInline let composed: @Sendable (HTTPRequestHead) async throws -> LightResult
    @inlinable public init<M: SendableHeadMiddleware, T: HeadTransport>(_ middleware: M, over transport: T) {
        composed = { request in try await middleware.intercept(request) { request in try await transport.send(request) }
        }
    }
    @inlinable public func send(_ request: HTTPRequestHead) async throws -> LightResult { try await composed(request) }
}

// MARK: 5. Light heads plus a per-request context, carried in the request value

public struct HTTPRequest<Context: ContextStorage>: Sendable {
    public var head: HTTPRequestHead
    public var context: Context
    @inlinable public init(head: HTTPRequestHead, context: Context) {
        self.head = head
        self.context = context
    }
}
public protocol ContextMiddleware: Sendable {
    associatedtype Context: ContextStorage
    func intercept(_ request: HTTPRequest<Context>, next: (HTTPRequest<Context>) async throws -> LightResult)
        async throws -> LightResult
}
public protocol ContextTransport: Sendable {
    func send<C: ContextStorage>(_ request: HTTPRequest<C>) async throws -> LightResult
}
public struct ContextPair<Outer: ContextMiddleware, Inner: ContextMiddleware>: ContextMiddleware
where Outer.Context == Inner.Context {
    public typealias Context = Outer.Context
    @usableFromInline let outer: Outer
    @usableFromInline let inner: Inner
    @inlinable public init(_ outer: Outer, _ inner: Inner) {
        self.outer = outer
        self.inner = inner
    }
    @inlinable
    public func intercept(_ request: HTTPRequest<Context>, next: (HTTPRequest<Context>) async throws -> LightResult)
        async throws -> LightResult
    {
        try await outer.intercept(request) { request in try await inner.intercept(request, next: next) }
    }
}
public struct ContextPipeline<Context: ContextStorage>: Sendable {
    @usableFromInline let composed: @Sendable (HTTPRequest<Context>) async throws -> LightResult
    @inlinable public init<M: ContextMiddleware, T: ContextTransport>(_ middleware: M, over transport: T)
    where M.Context == Context {
        composed = { request in try await middleware.intercept(request) { request in try await transport.send(request) }
        }
    }
    @inlinable public func send(_ request: HTTPRequest<Context>) async throws -> LightResult {
        try await composed(request)
    }
}

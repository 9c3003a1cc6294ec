public import HTTPPipeline

/// Adds default and computed headers to every request, never overriding a header the request
/// already has unless a header's policy says so.
///
/// ```swift
/// import HTTPPipelineLogging
///
/// let headers = try DefaultHeaders([
///     .fixed("User-Agent", "Shelf/2.3 (iOS 18.1) swift-http-pipeline/0.1"),
///     .fixed("Accept", "application/json"),
///     .computed("X-Request-ID") { _ in UUID().uuidString },
///     .fixed("Accept-Encoding", "br", policy: .append),
/// ])
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     headers
///     LoggingMiddleware(level: .headers, sink: sink)
/// }
/// ```
///
/// Names are compared case-insensitively. Every name and value is checked against the HTTP
/// grammar: fixed headers when the middleware is built (the initialiser throws), computed ones
/// each time they are computed (the request fails before it is sent). A CR, LF or NUL can never
/// reach the wire through this middleware, so header injection is impossible through it.
///
/// ## Ordering
/// Put it **outside** (above) logging, auth and retry:
/// - *Logging* inside it logs the headers actually sent; outside it, the log misses them.
/// - *Auth* inside it: a replay after a refresh carries the same computed headers as the rejected
///   request; with auth outside, the replay recomputes them.
/// - Never make `Authorization` a default header in a pipeline with auth: outside auth it is sent
///   instead of the credential (auth leaves a request that already carries its header alone, 401
///   included); inside auth an `.override` replaces the credential and wastes a refresh.
/// - *Retry* inside it makes every attempt carry the same computed values (one request ID for all
///   attempts of a call). Put it inside retry only for values that must be fresh per attempt,
///   such as a timestamp signature.
public struct DefaultHeaders: HTTPMiddleware {
    let headers: [Header]

    /// Creates the middleware, checking every fixed header now.
    ///
    /// - Parameter headers: The headers to add, applied in order.
    /// - Throws: ``HeaderError`` when a name or a fixed value is not legal HTTP.
    public init(_ headers: [Header]) throws(HeaderError) {
        for header in headers {
            try HeaderGrammar.check(name: header.name)
            if case .fixed(let value) = header.value {
                try HeaderGrammar.check(value: value, of: header.name)
            }
        }
        self.headers = headers
    }

    /// Adds the headers that apply, then passes the request on.
    ///
    /// - Parameters:
    ///   - request: The request; its own headers win unless a header's policy overrides them.
    ///   - next: The rest of the pipeline.
    /// - Returns: What `next` returned, unchanged.
    /// - Throws: ``HeaderError`` when a computed value is not legal HTTP (nothing is sent), or
    ///   what `next` threw, unchanged.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        for header in headers {
            try header.apply(to: &request)
        }
        return try await next(request)
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module.
extension DefaultHeaders: BindsWhenBuilt {}

/// Keeps a cut deadline: it adds fields and waits for nothing but the layers below.
extension DefaultHeaders: KeepsDeadline {}

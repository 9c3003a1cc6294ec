public import HTTPPipeline
public import HTTPPipelineAuth
public import HTTPPipelineGzip
public import HTTPPipelineHeaders
public import HTTPPipelineLogging
public import HTTPPipelineRetry

/// The recommended pipeline in one call: default headers, retry, auth, logging and decoding, in
/// the documented order, each configured by ``StandardOptions`` or left out.
///
/// ```swift
/// import HTTPPipelineHeaders
/// import HTTPPipelineLogging
/// import Testing
///
/// let client = try StandardPipeline.build(over: URLSessionTransport(), options: StandardOptions(
///     headers: [.fixed("User-Agent", "Shelf/2.3")],
///     credentials: tokenStore,
///     logging: .init(level: .basic, sink: StandardErrorLogSink())
/// ))
/// print(client)   // Pipeline(DefaultHeaders -> RetryMiddleware -> AuthMiddleware -> LoggingMiddleware -> GzipMiddleware -> URLSessionTransport)
/// #expect(client.orderingDiagnostics.isEmpty)
/// ```
///
/// ## Ordering
/// `DefaultHeaders → RetryMiddleware → AuthMiddleware → LoggingMiddleware → GzipMiddleware →
/// transport`, outermost first: every attempt carries the same headers; each attempt re-runs auth,
/// so an attempt after a refresh carries the new token; logging sees each attempt as sent, with
/// its credential redacted, and decoded bodies; decoding works on the wire bytes. Its
/// `Pipeline.orderingDiagnostics` are empty.
public enum StandardPipeline {
    /// Builds the recommended pipeline over a transport.
    ///
    /// - Parameters:
    ///   - transport: The transport at the bottom.
    ///   - options: Each plugin's settings; plugins set to `nil` are left out.
    /// - Returns: The pipeline.
    /// - Throws: `HeaderError` when a default header is not legal HTTP.
    @inlinable
    public static func build<Transport: HTTPTransport>(
        over transport: Transport,
        options: StandardOptions = StandardOptions()
    ) throws -> Pipeline<some HTTPMiddleware, Transport> {
        let headers = options.headers.isEmpty ? nil : try DefaultHeaders(options.headers)
        return Pipeline(transport: transport) {
            headers
            options.retry.map { RetryMiddleware(policy: $0, clock: options.clock) }
            options.authMiddleware
                ?? options.credentials.map { AuthMiddleware(source: $0, options: options.auth, clock: options.clock) }
            options.logging.map { LoggingMiddleware(level: $0.level, sink: $0.sink, redaction: $0.redaction) }
            options.gzip.map { GzipMiddleware($0) }
        }
    }
}

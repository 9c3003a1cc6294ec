public import HTTPPipeline

/// A transport over the system's libcurl: the fast one on Linux.
///
/// ```swift
/// import HTTPPipelineRetry
///
/// let pipeline = Pipeline(transport: CurlTransport()) {
///     RetryMiddleware()
/// }
/// ```
///
/// - **Engine.** Each configuration has one engine: a libcurl multi handle driven by one thread
///   of its own (`curl_multi_poll`), which the async callers hand work to without blocking the
///   cooperative pool; the thread sleeps when it has nothing to do (or polls a while first:
///   ``Configuration/spinBeforeSleeping``). Connections are reused across requests through the
///   multi handle's connection cache, at most ``Configuration/maximumConnectionsPerHost`` to a host. Plain
///   `http` speaks HTTP/1.1; over TLS, HTTP/2 is offered by ALPN and its streams share one
///   connection (``Configuration/allowsHTTP2``). Every copy of a transport shares its engine;
///   the engine and its thread end when the last copy is gone (the default configuration's
///   engine lives as long as the process).
/// - **Streaming.** `send` returns when the response head arrives. A body whose
///   `Content-Length` is at most ``Configuration/bufferingLimit`` is read first and handed over
///   buffered; a longer one, or one of unknown length, streams as libcurl receives it. When the
///   reader falls 1 MiB behind, the transfer pauses until it catches up, so memory stays flat
///   however large the body. Dropping a streamed body unread, or cancelling the task reading it,
///   aborts the transfer.
/// - **Request bodies.** A buffered body goes with its `Content-Length`. A streamed one is read as
///   libcurl sends it (never spooled): with a `Content-Length` when its length is known, else
///   chunked (HTTP/1.1). The transport frames the body itself: a `Content-Length` or
///   `Transfer-Encoding` field of the request is not sent.
/// - **Nothing added, nothing hidden.** The transport sends the request's own fields and `Host`,
///   nothing else: no `Accept`, no `Expect`, no `User-Agent`, and **no `Accept-Encoding`** (put
///   `GzipMiddleware` in the pipeline: it asks for `gzip, deflate` and decodes). It decodes no
///   content coding, follows no redirect (a 3xx comes back as it is, for `RedirectMiddleware`),
///   answers no challenge (a 401 comes back as it is), caches nothing and keeps no cookies
///   (libcurl's cookie engine is off: cookies are the pipeline's business). A 1xx interim head
///   is skipped and a chunked body's trailers are dropped. Of transfer codings, libcurl decodes
///   chunked, and before its 8.x releases also a `gzip` or `deflate` transfer coding, failing
///   with curl error 61 on one it does not know.
/// - **Sent at most once.** libcurl sends a request again on a new connection when the kept-alive
///   one it reused closes before any answer. The transport lets it only for a request
///   `HTTPRequest.mayBeResentByTransport` allows (an idempotent method, or an
///   `Idempotency-Key`); any other reaches the server at most once, and fails with
///   `HTTPTransportError.outcomeUnknown` when its connection dies after it was sent.
/// - **Progress and files.** A request whose context has a `progress` observer
///   (`HTTPTransferProgress`) is told as its body goes out and the response comes in. Download
///   to a file with `HTTPBody.write(to:limit:)`, upload from one with
///   `HTTPBody(contentsOf:chunkSize:)`.
/// - **Cancellation and timeouts.** Cancelling the calling task aborts the transfer at once and
///   throws `CancellationError`. The connect timeout and total timeout come from the
///   ``Configuration``; a request's `HTTPRequestContext.deadline` shortens the total timeout to
///   the time it has left.
/// - **TLS.** Certificates are verified against the system's certificate authorities (or
///   ``Configuration/certificateAuthorities``); a client certificate is optional.
/// - **Proxies** only when the configuration says so (``Configuration/Proxy``): by default the
///   environment's `http_proxy` and friends are ignored.
/// - **Metrics.** The response carries the attempt's `HTTPTransferMetrics`
///   (`response.transferMetrics`), read from libcurl's `CURLINFO_*` values when the transfer
///   ends: name resolution, connect, TLS handshake, request start, first and last byte; bytes
///   sent, head and body bytes received; whether the connection was reused (on a reused one the
///   resolution, connect and handshake times are `nil`); the HTTP version; the remote address and
///   port. A streamed body's metrics are final once it has been read to its end.
/// - **Errors.** A failed transfer throws ``CurlTransportError`` with libcurl's code, message
///   and category, which `HTTPFailureClass` reads (a refused connection or DNS failure as not
///   sent); a request that cannot be sent throws `HTTPTransportError.invalidRequest`. HTTP error
///   statuses are returned, not thrown.
///
/// It keeps the whole transport contract (`TransportConformance` in `HTTPPipelineTesting`),
/// which its tests run.
public struct CurlTransport: HTTPTransport, KeepsDeadline {
    /// The configuration the transport's engine was made with.
    public var configuration: Configuration { owner.configuration }

    let owner: CurlEngineOwner

    /// Creates a transport.
    ///
    /// Transports made without a configuration share one process-wide engine, so creating them
    /// costs nothing and connections are reused across them. With a configuration, the
    /// transport gets an engine (and a thread) of its own, ended when its last copy is gone.
    ///
    /// - Parameter configuration: The engine's configuration; `nil` (the default) for the shared
    ///   engine, which has ``Configuration/default``.
    public init(configuration: Configuration? = nil) {
        owner = configuration.map { CurlEngineOwner(configuration: $0) } ?? CurlEngineOwner.shared
    }

    /// The engine's thread as a task executor: a task that prefers it runs there, between the
    /// engine's polls, so each request it sends is queued and each response resumes it without
    /// waking another thread. Use it for a task that sends requests one after another and does
    /// little else between them; code that runs long or blocks there holds up every transfer of
    /// the engine. Without the libcurl runtime, the global concurrent executor.
    ///
    /// ```swift
    /// import HTTPPipeline
    /// import HTTPPipelineCurl
    ///
    /// func fetchAll(_ urls: [URL], through transport: CurlTransport) async throws -> [Data] {
    ///     try await withTaskExecutorPreference(transport.taskExecutor) {
    ///         var bodies: [Data] = []
    ///         for url in urls {
    ///             let response = try await transport.send(HTTPRequest(url: url))
    ///             bodies.append(try await response.body.collect(upTo: 1 << 20))
    ///         }
    ///         return bodies
    ///     }
    /// }
    /// ```
    public var taskExecutor: any TaskExecutor {
        switch owner.engine {
        case .success(let engine): engine
        case .failure: globalConcurrentExecutor
        }
    }

    /// Sends a request with libcurl.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response: its head, and its body buffered or streaming.
    /// - Throws: `HTTPTransportError.invalidRequest` for a request that cannot be sent,
    ///   `CancellationError` when the calling task is cancelled, ``CurlTransportError`` when the
    ///   transfer fails (of category `libraryUnavailable` when the libcurl runtime cannot be
    ///   loaded), or what reading a streamed request body threw.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let engine = try owner.engine.get()
        let prepared = try CurlRequest(request, configuration: engine.configuration)
        var upload: CurlUpload?
        if case .stream = prepared.body { upload = CurlUpload() }
        let transfer = CurlTransfer(request: prepared, upload: upload)
        // A deadline cut without a race (every layer above keeps it): the cut aborts the
        // transfer, head or body, as cancelling the caller would.
        // Held weakly: the cut lives as long as the call, the transfer no longer than its attempt.
        request.context.deadline?.cut?.onCut { [weak transfer] in transfer?.cancel(on: engine) }
        if let upload, let body = request.body { upload.pull(body, for: transfer, on: engine) }
        var response: HTTPResponse
        switch try await transfer.start(on: engine) {
        case .buffered(let head, let data):
            response = HTTPResponse(head: head, body: HTTPBody(data))
        case .streaming(let head):
            let length = head.fields["Content-Length"].flatMap { Int($0) }
            let reader = CurlBodyReader(transfer: transfer, engine: engine, owner: owner)
            response = HTTPResponse(head: head, body: HTTPBody(stream: CurlBodyChunks(reader: reader), length: length))
        }
        response.context.transferRecord = transfer.record
        return response
    }
}

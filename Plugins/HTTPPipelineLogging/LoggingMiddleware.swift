public import HTTPPipeline
public import HTTPPipelineRedaction

/// Writes one structured, redacted record per exchange that passes it to a pluggable sink.
///
/// ```swift
/// import HTTPPipelineHeaders
///
/// let pipeline = try Pipeline(transport: URLSessionTransport()) {
///     try DefaultHeaders([.fixed("User-Agent", "Shelf/2.3")])
///     LoggingMiddleware(level: .headers, sink: StandardErrorLogSink())
/// }
/// // GET https://api.example.com/books?access_token=<redacted> -> 200 (sent 0 B, received 512 B) in 41.3 ms
/// //   > Authorization: <redacted>
/// //   > User-Agent: Shelf/2.3
/// ```
///
/// Redaction is deny-by-default (see `Redaction`): secrets named as such (headers, query items,
/// JSON, form and multipart fields, judged by their words), secrets recognisable by their shape
/// (tokens with published prefixes, JWTs, private keys, random-looking tokens) wherever they
/// appear, URL user info, and secrets in error descriptions never reach the sink. Logging never changes the request, the response or the error the caller sees,
/// and a sink that throws never fails the request. At ``LogLevel/none`` nothing is recorded or
/// formatted; at ``LogLevel/basic`` no header or body is looked at.
///
/// A record stays small whatever the exchange: the URL, each header value (and the error
/// description) and each body are cut to their limits (4 KiB, 1 KiB and 4 KiB by default), always
/// after redaction and on a character boundary; a cut part ends with a note
/// `… (N more bytes; limit L)`, and the record carries its ``HTTPLogRecord/limits``.
///
/// The duration is measured on a monotonic clock; the attempt number is the one a retrying layer
/// outside set in the request's context (`HTTPRequestContext.attempt`).
///
/// ## Ordering
/// Logging records what reaches its position:
/// - **Inside** (below) default headers, auth and anything else that changes the request, so the
///   log shows what is actually sent; outside them it misses those headers.
/// - **Inside** retry to log every attempt with its attempt number; **outside** retry to log one
///   record per call, with the final outcome and the total time including backoff.
/// - **Outside** (above) gzip decoding to log the decoded body size; inside it, the wire size and
///   `Content-Encoding`. (Outside it, the log does not show the `Accept-Encoding` gzip adds.)
public struct LoggingMiddleware: HTTPMiddleware {
    /// How much each record holds.
    public private(set) var level: LogLevel
    let sink: any HTTPLogSink
    let redaction: Redaction
    let bodyLimit: Int
    let urlLimit: Int
    let headerValueLimit: Int
    let cleanURLs = CleanURLMemo()

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - level: How much to record; ``LogLevel/basic`` by default.
    ///   - sink: Where records go.
    ///   - redaction: What to hide; `Redaction.default` hides every built-in kind of secret.
    ///   - bodyLimit: The most bytes of each body shown at ``LogLevel/body``, after redaction.
    ///   - urlLimit: The most bytes of the URL shown, after redaction; 4,096 by default.
    ///   - headerValueLimit: The most bytes of each header value (and of the error description)
    ///     shown at ``LogLevel/headers``, after redaction; 1,024 by default.
    public init(
        level: LogLevel = .basic,
        sink: some HTTPLogSink,
        redaction: Redaction = .default,
        bodyLimit: Int = 4_096,
        urlLimit: Int = 4_096,
        headerValueLimit: Int = 1_024
    ) {
        self.level = level
        self.sink = sink
        self.redaction = redaction
        self.bodyLimit = max(0, bodyLimit)
        self.urlLimit = max(0, urlLimit)
        self.headerValueLimit = max(0, headerValueLimit)
    }

    /// Creates the middleware with a closure as its sink.
    ///
    /// - Parameters:
    ///   - level: How much to record.
    ///   - redaction: What to hide.
    ///   - bodyLimit: The most bytes of each body shown at ``LogLevel/body``.
    ///   - urlLimit: The most bytes of the URL shown.
    ///   - headerValueLimit: The most bytes of each header value, and of the error description,
    ///     shown.
    ///   - write: Called with each record.
    public init(
        level: LogLevel = .basic,
        redaction: Redaction = .default,
        bodyLimit: Int = 4_096,
        urlLimit: Int = 4_096,
        headerValueLimit: Int = 1_024,
        write: @escaping @Sendable (HTTPLogRecord) throws -> Void
    ) {
        self.init(
            level: level, sink: ClosureLogSink(write), redaction: redaction, bodyLimit: bodyLimit, urlLimit: urlLimit,
            headerValueLimit: headerValueLimit)
    }

    /// Passes the request on unchanged and records the exchange.
    ///
    /// - Parameters:
    ///   - request: The request, passed on unchanged.
    ///   - next: The rest of the pipeline.
    /// - Returns: What `next` returned, unchanged.
    /// - Throws: What `next` threw, unchanged.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        if let override = request.context.logLevel, override != level {
            var adjusted = self
            adjusted.level = override
            return try await adjusted.intercept(request, next: next)
        }
        guard level > .none else { return try await next(request) }
        let start = MonotonicTime.now()
        let attempt = request.context.attempt
        let requestType = request.fields["Content-Type"]
        let streamedRequest = request.body?.isBuffered == false
        let sentBody = SentBody(request.body, contentType: requestType)
        let streamedBody = request.body?.isBuffered != true
        var response: HTTPResponse
        do {
            if let body = request.body, streamedRequest {
                // A streamed request body is watched as the transport reads it, never read here.
                var watched = request
                watched.body = BodyTee.watch(body, keeping: kept(contentType: requestType)) { seen, error in
                    guard error == nil else { return }
                    sentBody.update(BodySeen(bytes: seen.bytes, prefix: seen.prefix, contentType: requestType))
                }
                response = try await next(watched)
            } else {
                // Passed on as it came: no copy of the request.
                response = try await next(request)
            }
        } catch {
            let elapsed = MonotonicTime.now() - start
            emit(
                record(
                    request.head, streamedBody: streamedBody, attempt: attempt, elapsed: elapsed,
                    sent: sentBody.seen, error: error
                ))
            throw error
        }
        let head = response.head
        let responseType = head.fields["Content-Type"]
        guard !response.body.isBuffered else {
            let elapsed = MonotonicTime.now() - start
            let body = BodySeen(response.body, contentType: responseType)
            emit(
                record(
                    request.head, streamedBody: streamedBody, attempt: attempt, elapsed: elapsed, sent: sentBody.seen,
                    response: (head, body), metrics: response.transferMetrics))
            return response
        }
        // A streamed response is logged when its body ends, fails or is dropped: one record
        // with the bytes that passed, while the reader gets every byte unchanged.
        let keep = kept(contentType: responseType)
        // The record needs the head only: a large request body is not kept alive for as long
        // as a streamed response lasts.
        let original = request.head
        let transfer = response.context.transferRecord
        response.body = BodyTee.watch(response.body, keeping: keep) { [self] seen, error in
            let elapsed = MonotonicTime.now() - start
            let body = BodySeen(
                bytes: seen.bytes, prefix: level >= .body ? seen.prefix : nil, contentType: responseType)
            emit(
                record(
                    original, streamedBody: streamedBody, attempt: attempt, elapsed: elapsed, sent: sentBody.seen,
                    response: (head, body), error: error, metrics: transfer?.metrics)
            )
        }
        return response
    }

    /// How many of a streamed body's first bytes a tee keeps for the record: none below
    /// ``LogLevel/body``; else as many as `Redaction.body(_:contentType:limit:)` reads of a
    /// buffered body, one byte past what it scans. A copy cut at the limit itself could end inside
    /// a run of text (user info before its `@`, a credential after `Bearer`) whose half no longer
    /// looks like the secret it is part of; with that byte the redaction cuts the copy where no
    /// run is split, exactly as it cuts a buffered body, and notes the cut.
    private func kept(contentType: String?) -> Int {
        guard level >= .body else { return 0 }
        let multipart = Redaction.mediaType(contentType)?.hasPrefix("multipart/") == true
        let scanned = multipart ? Redaction.bodyScanCeiling : Redaction.scanCap(limit: bodyLimit)
        return scanned == .max ? .max : scanned + 1
    }

    private func emit(_ record: HTTPLogRecord) {
        // A sink that fails loses its record, never the caller's request.
        try? sink.write(record)
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module.
extension LoggingMiddleware: BindsWhenBuilt {}

/// Keeps a cut deadline: it records and waits for nothing but the layers below.
extension LoggingMiddleware: KeepsDeadline {}

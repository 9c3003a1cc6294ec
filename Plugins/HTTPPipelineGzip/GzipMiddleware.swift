import Foundation
public import HTTPPipeline

/// Decodes `gzip`, `x-gzip` and `deflate` response bodies with zlib, bounded against
/// decompression bombs, and optionally gzip-compresses large request bodies.
///
/// ```swift
/// import HTTPPipelineLogging
///
/// let pipeline = Pipeline(transport: transport) {
///     LoggingMiddleware(level: .basic, sink: sink)   // outside: logs the decoded size
///     GzipMiddleware(.default.decodingGzipDownloads())
/// }
/// let response = try await pipeline.send(request)
/// let json = try await response.body.collect(upTo: 1 << 20)
/// // response.fields has no Content-Encoding, and Content-Length is json.count
/// ```
///
/// On the way out it adds `Accept-Encoding: gzip, deflate` when the request has no
/// `Accept-Encoding` (a caller's own value is kept as it is), and, when
/// ``GzipOptions/compressingRequestBodies(largerThan:)`` is set, compresses large bodies.
///
/// On the way back it decodes what `Content-Encoding` lists, last coding first, then removes
/// `Content-Encoding` and sets `Content-Length` to the decoded size, so layers above see a plain
/// response:
/// - gzip: every header flag (FEXTRA, FNAME, FCOMMENT, FHCRC), several members one after the
///   other, CRC-32 and length verified. Zero padding after the last member is ignored; any
///   other trailing byte is `GzipError.trailingData(byteCount:)`, because it means the body is
///   not what the server meant to send.
/// - deflate: zlib-wrapped (Adler-32 verified) when the body starts with a valid zlib header,
///   raw deflate otherwise, as browsers do.
/// - Stacked codings (`gzip, gzip`) up to ``GzipOptions/maximumStackedCodings``; more is
///   `GzipError.tooManyCodings(count:maximum:)`. A list with any coding it does not know
///   (`br`, `zstd`, …) passes through untouched, header and all, unless the transport decoded
///   it (next section). `identity` is ignored.
/// - Limits: decoding stops the moment the output would pass ``GzipOptions/maximumDecodedSize``
///   or ``GzipOptions/maximumExpansionRatio`` times the received size, and throws
///   `GzipError.limitExceeded(_:)`. No buffer ever grows past the limit.
///
/// ## Bodies the transport decoded
/// `URLSessionTransport` inflates gzip, deflate and brotli bodies itself (the URL loading system
/// cannot be told not to) and marks the head it hands up (`HTTPResponseHead.decodedByTransport`).
/// Such a body is never decoded again: it is handed on under a head without `Content-Encoding`,
/// its bytes counted against ``GzipOptions/maximumDecodedSize`` and, when the head has the
/// encoded `Content-Length`, against ``GzipOptions/maximumExpansionRatio`` times it; a body the
/// session could not decode (`HTTPTransportError.contentDecodingFailed(reason:)`) is a
/// `GzipError.corrupt(message:)`.
///
/// Any other body is decoded strictly: one that is not what its `Content-Encoding` says (no gzip
/// magic bytes, a zlib stream that needs a preset dictionary, deflate that is neither zlib nor
/// raw deflate, a stream cut short, a failed check) is a `GzipError`, whatever its framing.
///
/// ## Partial content
/// A `206 Partial Content` response is handed on undecoded, head and all: its body is a range of
/// the compressed representation, which cannot be decoded on its own (only the whole can). If the
/// transport decoded it, the head loses `Content-Encoding` as in the section above. `URLSession`
/// inflates a first range itself and fails on any other; send `Accept-Encoding: identity` with
/// `Range` requests.
///
/// ## Streamed bodies
/// A streamed body (`HTTPBody(stream:)`, or a replayable one) is decoded as it is read, chunk by
/// chunk as its bytes arrive, never held whole: the response comes back once its first bytes are
/// in, with a head that has no `Content-Length`, and its body yields decoded chunks of at most
/// 120 KiB. It is replayable when the body from below is. Everything above holds, as far as a
/// stream allows:
/// - The limits are checked as the decoded body grows, the ratio against the bytes received so
///   far; the read throws `GzipError.limitExceeded(_:)` before any byte past the limit is
///   handed out. Errors found later in the body (a bad checksum, truncation, trailing bytes) are
///   thrown by the read that meets them, after the chunks before it.
/// - A body known to be small (its length, or else its `Content-Length`, at most 256 KiB) is read
///   whole first and decoded exactly as a buffered one.
/// - deflate's format (zlib or raw, or not deflate at all) is settled on its first 4 KiB.
///
/// ## The head handed up
/// Decoding changes the response's `HTTPResponseHead` in place: the same status
/// and fields, less `Content-Encoding`, with `Content-Length` giving the decoded size. The decoded
/// body is handed up buffered. A streamed body is collected first, refusing more than
/// ``GzipOptions/maximumDecodedSize`` bytes, when its head names a coding this layer decodes (or
/// it is a gzip download to decode); any other streamed body is handed on as it came.
///
/// ## Ordering
/// - **Logging outside** (listed before) the decoder sees decoded bodies and sizes;
///   **inside** (listed after) it sees the bytes on the wire.
/// - **Inside retry**: every attempt's body is decoded before retry judges it. A corrupt or
///   truncated body throws a `GzipError` from here, which the default retry policy does not
///   retry (it is not a transient transport error). Outside retry it decodes only the final answer.
/// - **Anywhere relative to auth** by default: auth looks at statuses and request headers, which
///   decoding does not change. With request compression on, list it *before* (outside) any layer
///   that signs the body, so the signer, inside it, signs the compressed bytes that are sent; in
///   the recommended stack auth is outside gzip, so a body-signing credential would sign the
///   plain body: turn request compression off there, or move gzip above auth.
public struct GzipMiddleware: HTTPMiddleware {
    /// What it decodes, its limits, and whether it compresses requests.
    public let options: GzipOptions

    /// Creates the middleware.
    ///
    /// - Parameter options: What to decode and how far; ``GzipOptions/default`` by default.
    public init(_ options: GzipOptions = .default) {
        self.options = options
        self.decoding = options.decoding
    }

    /// How a whole response body is decoded, from ``options``.
    let decoding: ContentDecoding

    /// Asks for compressed responses, compresses a large request body if told to, and decodes
    /// the response body.
    ///
    /// - Parameters:
    ///   - request: The request; gets `Accept-Encoding` if it has none.
    ///   - next: The rest of the pipeline.
    /// - Returns: The decoded body, with a head that no longer mentions the coding; a `206` or a
    ///   body in a coding this layer does not decode, as it came.
    /// - Throws: `GzipError` for a body that cannot be decoded or passes a limit, or when a
    ///   request body cannot be compressed; whatever `next` threw, unchanged.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        switch request.context.gzip {
        case nil: break
        case .off?: return try await next(request)
        case .options(let options)?:
            var request = request
            request.context.gzip = nil
            return try await GzipMiddleware(options).intercept(request, next: next)
        }
        let prepared = try prepare(request)
        let response: HTTPResponse
        do {
            response = try await next(prepared)
        } catch {
            throw Self.mapped(error)
        }
        // Nothing to decode (no coding named, not a gzip download): as it came, uncopied.
        if response.head.fields["Content-Encoding"] == nil, !decoding.mayDecodeAsDownload(response.head) {
            return response
        }
        var decoded: HTTPResponse
        if let data = response.body.bufferedData {
            let (body, head) = try decoding.decode(data, response.head)
            decoded = HTTPResponse(head: head, body: HTTPBody(body))
        } else {
            decoded = try await decodeStreamed(response)
        }
        decoded.context = response.context
        return decoded
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module.
extension GzipMiddleware: BindsWhenBuilt {}

/// Keeps a cut deadline: it decodes as the body is read and waits for nothing but the layers below.
extension GzipMiddleware: KeepsDeadline {}

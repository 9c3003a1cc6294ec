/// What a ``GzipMiddleware`` decodes, how far it lets a body expand, and whether it compresses
/// request bodies.
///
/// Start from ``default`` and change what you need:
///
/// ```swift
/// let options = GzipOptions.default
///     .limiting(decodedSize: 256 << 20, expansionRatio: 200)
///     .decodingGzipDownloads()
///     .compressingRequestBodies(largerThan: 16 << 10)
/// ```
public struct GzipOptions: Sendable, Equatable {
    /// The most bytes a decoded body may have. Decoding stops, with
    /// `GzipError.limitExceeded(_:)`, as soon as the output would pass it.
    public var maximumDecodedSize: Int

    /// The most times a decoded body may exceed the size of the body as it was received.
    ///
    /// Checked only once the decoded body is past ``ratioFloor`` bytes, so tiny bodies that
    /// compress very well (a page of zeros, an empty array padded with spaces) are never refused.
    /// For stacked codings (`gzip, gzip`) the ratio is to the size received, across every layer.
    public var maximumExpansionRatio: Int

    /// Whether a body served as `Content-Type: application/gzip` or `application/x-gzip`
    /// without a `Content-Encoding` (a download of a `.gz` file) is decoded too.
    public var decodesGzipDownloads: Bool

    /// Request bodies larger than this many bytes are gzip-compressed; `nil` (the default)
    /// leaves every request body as it is.
    public var requestCompressionThreshold: Int?

    /// The decoded size below which ``maximumExpansionRatio`` is not checked: 1 MiB.
    public static let ratioFloor = ContentDecoding.ratioFloor

    /// The most codings one `Content-Encoding` may stack (e.g. `gzip, gzip`): 3.
    public static let maximumStackedCodings = ContentDecoding.maximumStackedCodings

    /// Safe defaults: decoded bodies up to 64 MiB and 100 times their compressed size, gzip
    /// downloads left alone, request bodies sent as they are.
    public static let `default` = GzipOptions(
        maximumDecodedSize: 64 << 20,
        maximumExpansionRatio: 100,
        decodesGzipDownloads: false,
        requestCompressionThreshold: nil
    )

    /// These options with other limits against decompression bombs.
    ///
    /// - Parameters:
    ///   - decodedSize: The most bytes a decoded body may have; at least 0.
    ///   - expansionRatio: The most times a decoded body past ``ratioFloor`` may exceed the size
    ///     received; at least 1.
    /// - Returns: The changed options.
    public func limiting(decodedSize: Int, expansionRatio: Int) -> GzipOptions {
        var options = self
        options.maximumDecodedSize = max(0, decodedSize)
        options.maximumExpansionRatio = max(1, expansionRatio)
        return options
    }

    /// These options, also decoding bodies served as `application/gzip` or `application/x-gzip`
    /// without a `Content-Encoding`.
    ///
    /// The decoded response's `Content-Type` becomes `application/octet-stream`.
    ///
    /// - Returns: The changed options.
    public func decodingGzipDownloads() -> GzipOptions {
        var options = self
        options.decodesGzipDownloads = true
        return options
    }

    /// These options, also gzip-compressing request bodies larger than `threshold` bytes.
    ///
    /// A request that already has a `Content-Encoding`, or whose body is a stream, is never
    /// compressed. Only use it with servers known to accept `Content-Encoding: gzip` requests.
    ///
    /// - Parameter threshold: The body size, in bytes, above which bodies are compressed.
    /// - Returns: The changed options.
    public func compressingRequestBodies(largerThan threshold: Int) -> GzipOptions {
        var options = self
        options.requestCompressionThreshold = max(0, threshold)
        return options
    }
}

extension GzipOptions {
    /// The bound on the decoded size of a body received as `wireSize` bytes, and the limit to
    /// report when it is passed.
    package func outputLimit(forWireSize wireSize: Int) -> OutputLimit {
        decoding.outputLimit(forWireSize: wireSize)
    }

    /// The decoding rules these options set.
    package var decoding: ContentDecoding {
        ContentDecoding(
            maximumDecodedSize: maximumDecodedSize,
            maximumExpansionRatio: maximumExpansionRatio,
            decodesGzipDownloads: decodesGzipDownloads
        )
    }
}

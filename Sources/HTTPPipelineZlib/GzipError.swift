/// Why a gzip or deflate body could not be decoded, or a request body could not be compressed.
///
/// Every case names what went wrong in the stream, never its bytes, so the error is safe to log.
/// `GzipMiddleware` throws it in place of a response; the exchange itself succeeded.
public struct GzipError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case truncated, corrupt, badHeader, checksumMismatch, trailingData, limitExceeded, tooManyCodings, zlibFailure
    }

    /// Which integrity check failed.
    public enum Check: String, Hashable, Sendable {
        /// The gzip trailer's CRC-32 of the decoded bytes.
        case crc32 = "CRC-32"
        /// The gzip trailer's length of the decoded bytes (ISIZE, modulo 2³²).
        case length = "length"
        /// The zlib trailer's Adler-32 of the decoded bytes.
        case adler32 = "Adler-32"
        /// The gzip header's own CRC-16 (present when the header sets FHCRC).
        case headerCRC = "header CRC"
    }

    /// Which limit against decompression bombs was reached.
    public enum Limit: Hashable, Sendable {
        /// The decoded body would exceed this many bytes.
        case decodedSize(Int)
        /// The decoded body would exceed this many times the size of the body as received.
        case expansionRatio(Int)
    }

    private let code: Code
    /// zlib's message or the header's problem, for a corrupt body, a bad header or a zlib
    /// failure; `nil` otherwise.
    public let message: String?
    /// The check that failed, for a checksum mismatch; `nil` otherwise.
    public let check: Check?
    /// The limit reached, for a body stopped at a limit; `nil` otherwise.
    public let limit: Limit?
    /// The unexpected bytes after the end, or the codings stacked; `nil` otherwise.
    public let count: Int?
    /// The most codings decoded, for too many stacked codings; `nil` otherwise.
    public let maximum: Int?

    private init(
        _ code: Code, message: String? = nil, check: Check? = nil, limit: Limit? = nil, count: Int? = nil,
        maximum: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.check = check
        self.limit = limit
        self.count = count
        self.maximum = maximum
    }

    /// The stream ended before its end marker or its trailer: the body is cut short.
    public static let truncated = GzipError(.truncated)

    /// The compressed data is invalid.
    ///
    /// - Parameter message: zlib's description, e.g. "invalid distance too far back".
    /// - Returns: The error.
    public static func corrupt(message: String) -> GzipError { GzipError(.corrupt, message: message) }

    /// The gzip or zlib header is malformed or asks for something unsupported.
    ///
    /// - Parameter reason: What.
    /// - Returns: The error.
    public static func badHeader(reason: String) -> GzipError { GzipError(.badHeader, message: reason) }

    /// An integrity check in a header or trailer does not match the data.
    ///
    /// - Parameter check: Which.
    /// - Returns: The error.
    public static func checksumMismatch(_ check: Check) -> GzipError { GzipError(.checksumMismatch, check: check) }

    /// Bytes other than zero padding follow the end of the last gzip member or zlib stream.
    ///
    /// - Parameter byteCount: How many.
    /// - Returns: The error.
    public static func trailingData(byteCount: Int) -> GzipError { GzipError(.trailingData, count: byteCount) }

    /// Decoding stopped as soon as the body reached a limit; nothing past it was inflated.
    ///
    /// - Parameter limit: The limit reached.
    /// - Returns: The error.
    public static func limitExceeded(_ limit: Limit) -> GzipError { GzipError(.limitExceeded, limit: limit) }

    /// `Content-Encoding` stacks more codings than the middleware decodes.
    ///
    /// - Parameters:
    ///   - count: The codings stacked.
    ///   - maximum: The most decoded.
    /// - Returns: The error.
    public static func tooManyCodings(count: Int, maximum: Int) -> GzipError {
        GzipError(.tooManyCodings, count: count, maximum: maximum)
    }

    /// zlib could not set up or run (for example, it ran out of memory).
    ///
    /// - Parameter message: Why.
    /// - Returns: The error.
    public static func zlibFailure(message: String) -> GzipError { GzipError(.zlibFailure, message: message) }

    /// Whether the body is cut short.
    public var isTruncated: Bool { code == .truncated }
    /// Whether the compressed data is invalid.
    public var isCorrupt: Bool { code == .corrupt }
    /// Whether the gzip or zlib header is malformed or unsupported.
    public var isBadHeader: Bool { code == .badHeader }

    /// A one-line explanation, without any of the body's bytes.
    public var description: String {
        switch code {
        case .truncated: "compressed body is truncated"
        case .corrupt: "compressed body is corrupt: \(message ?? "")"
        case .badHeader: "compressed body has a bad header: \(message ?? "")"
        case .checksumMismatch: "compressed body fails its \(check?.rawValue ?? "") check"
        case .trailingData: "\(count ?? 0) unexpected bytes follow the end of the compressed body"
        case .limitExceeded:
            switch limit {
            case .decodedSize(let bytes)?: "decoded body exceeds the limit of \(bytes) bytes"
            case .expansionRatio(let ratio)?: "decoded body exceeds \(ratio) times its compressed size"
            case nil: "decoded body exceeds a limit"
            }
        case .tooManyCodings: "Content-Encoding stacks \(count ?? 0) codings; at most \(maximum ?? 0) are decoded"
        case .zlibFailure: "zlib failed: \(message ?? "")"
        }
    }
}

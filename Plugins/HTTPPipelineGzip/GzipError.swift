/// Why a gzip or deflate body could not be decoded, or a request body could not be compressed.
///
/// Every case names what went wrong in the stream, never its bytes, so the error is safe to log.
/// ``GzipMiddleware`` throws it in place of a response; the exchange itself succeeded.
public enum GzipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which integrity check failed.
    public enum Check: String, Equatable, Sendable {
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
    public enum Limit: Equatable, Sendable {
        /// The decoded body would exceed this many bytes.
        case decodedSize(Int)
        /// The decoded body would exceed this many times the size of the body as received.
        case expansionRatio(Int)
    }

    /// The stream ended before its end marker or its trailer: the body is cut short.
    case truncated
    /// The compressed data is invalid; `message` is zlib's description, e.g. "invalid distance too far back".
    case corrupt(message: String)
    /// The gzip or zlib header is malformed or asks for something unsupported; `reason` says what.
    case badHeader(reason: String)
    /// An integrity check in a header or trailer does not match the data.
    case checksumMismatch(Check)
    /// Bytes other than zero padding follow the end of the last gzip member or zlib stream.
    case trailingData(byteCount: Int)
    /// Decoding stopped as soon as the body reached a limit; nothing past it was inflated.
    case limitExceeded(Limit)
    /// `Content-Encoding` stacks more codings than the middleware decodes.
    case tooManyCodings(count: Int, maximum: Int)
    /// zlib could not set up or run (for example, it ran out of memory); `message` says why.
    case zlibFailure(message: String)

    /// A one-line explanation, without any of the body's bytes.
    public var description: String {
        switch self {
        case .truncated:
            "compressed body is truncated"
        case .corrupt(let message):
            "compressed body is corrupt: \(message)"
        case .badHeader(let reason):
            "compressed body has a bad header: \(reason)"
        case .checksumMismatch(let check):
            "compressed body fails its \(check.rawValue) check"
        case .trailingData(let count):
            "\(count) unexpected bytes follow the end of the compressed body"
        case .limitExceeded(.decodedSize(let bytes)):
            "decoded body exceeds the limit of \(bytes) bytes"
        case .limitExceeded(.expansionRatio(let ratio)):
            "decoded body exceeds \(ratio) times its compressed size"
        case .tooManyCodings(let count, let maximum):
            "Content-Encoding stacks \(count) codings; at most \(maximum) are decoded"
        case .zlibFailure(let message):
            "zlib failed: \(message)"
        }
    }
}

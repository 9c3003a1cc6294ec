import CHTTPPipelineZlib
package import Foundation

/// One zlib deflate stream, fed in pieces: compresses request bodies, and lets tests and the
/// benchmark make streams (bombs included) without holding the uncompressed bytes.
///
/// Like ``Inflater``, the `z_stream` lives at one heap address for its whole life and `deinit`
/// ends and frees it on every path.
package struct Deflater: ~Copyable {
    /// The framing around the deflate data.
    package enum Format: Sendable {
        /// gzip (RFC 1952): a minimal header, CRC-32 and length trailer.
        case gzip
        /// zlib (RFC 1950): two header bytes, Adler-32 trailer.
        case zlib
        /// Raw deflate (RFC 1951): no framing.
        case raw

        var windowBits: Int32 {
            switch self {
            case .gzip: 16 + 15
            case .zlib: 15
            case .raw: -15
            }
        }
    }

    /// What to do after compressing a piece.
    package enum Flush: Sendable {
        /// Nothing: zlib may hold output back for a better compression.
        case none
        /// Emit everything so far, byte-aligned, and forget the history (`Z_FULL_FLUSH`).
        case full
        /// End the stream and write the trailer.
        case finish

        var code: Int32 {
            switch self {
            case .none: Z_NO_FLUSH
            case .full: Z_FULL_FLUSH
            case .finish: Z_FINISH
            }
        }
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private static let scratchSize = 64 << 10

    /// Opens a stream.
    ///
    /// - Parameters:
    ///   - format: The framing to write.
    ///   - level: The compression level, 0 (store) to 9 (best); 6 by default.
    /// - Throws: ``GzipError/zlibFailure(message:)`` when zlib cannot set up the stream.
    package init(format: Format, level: Int32 = 6) throws(GzipError) {
        stream = try Self.open(windowBits: format.windowBits, level: level)
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    private static func open(windowBits: Int32, level: Int32) throws(GzipError) -> UnsafeMutablePointer<z_stream> {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let code = CHTTPPipelineZlib_deflateInit2(stream, level, windowBits, 8)
        guard code == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .zlibFailure(message: "deflateInit2 returned \(code)")
        }
        return stream
    }

    /// Compresses `input` and appends what zlib emits to `output`.
    ///
    /// - Parameters:
    ///   - input: The next uncompressed bytes; may be empty (to flush or finish).
    ///   - flush: What to do once they are in.
    ///   - output: Receives the compressed bytes.
    /// - Throws: ``GzipError/zlibFailure(message:)`` if zlib fails.
    package mutating func compress(_ input: Data, flush: Flush, into output: inout Data) throws(GzipError) {
        let stream = self.stream
        let result = input.withUnsafeBytes { raw -> Result<Void, GzipError> in
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.scratchSize)
            defer { scratch.deallocate() }
            let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            var offset = 0
            repeat {
                let count = min(raw.count - offset, Int(UInt32.max))
                stream.pointee.next_in = base.map { UnsafeMutablePointer(mutating: $0 + offset) }
                stream.pointee.avail_in = UInt32(count)
                offset += count
                let code = offset == raw.count ? flush.code : Z_NO_FLUSH
                repeat {
                    stream.pointee.next_out = scratch
                    stream.pointee.avail_out = UInt32(Self.scratchSize)
                    let status = deflate(stream, code)
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        return .failure(.zlibFailure(message: "deflate returned \(status)"))
                    }
                    output.append(scratch, count: Self.scratchSize - Int(stream.pointee.avail_out))
                } while stream.pointee.avail_out == 0
            } while offset < raw.count
            return .success(())
        }
        try result.get()
    }

    /// Compresses `data` in one go.
    ///
    /// - Parameters:
    ///   - data: The bytes to compress.
    ///   - format: The framing to write.
    ///   - level: The compression level, 0 to 9.
    /// - Returns: The complete compressed stream.
    /// - Throws: ``GzipError/zlibFailure(message:)`` if zlib fails.
    package static func compress(_ data: Data, format: Format, level: Int32 = 6) throws(GzipError) -> Data {
        var deflater = try Deflater(format: format, level: level)
        var output = Data()
        output.reserveCapacity(Int(deflateBound(nil, uLong(data.count))) + 32)
        try deflater.compress(data, flush: .finish, into: &output)
        return output
    }
}

import CHTTPPipelineZlib

/// One zlib inflate stream, in a `z_stream` that stays at one heap address from `inflateInit2`
/// to `inflateEnd` (zlib keeps a pointer back to it in its internal state, so it must not move).
///
/// Non-copyable: exactly one owner, and `deinit` ends the stream and frees it on every path,
/// thrown errors included.
struct Inflater: ~Copyable {
    /// The window bits of a raw deflate stream (no header, no trailer).
    static let raw: Int32 = -15
    /// The window bits of a zlib-wrapped stream (header and Adler-32 trailer checked by zlib).
    static let zlib: Int32 = 15
    /// The most output asked of zlib per call: small enough that the CRC-32 computed right after
    /// reads the bytes from cache, large enough that the per-call cost is noise.
    static let outputChunk = 256 << 10

    private let stream: UnsafeMutablePointer<z_stream>
    private var windowBits: Int32

    /// Opens a stream.
    ///
    /// - Parameter windowBits: ``raw`` or ``zlib``.
    /// - Throws: ``GzipError/zlibFailure(message:)`` when zlib cannot set up the stream.
    init(windowBits: Int32) throws(GzipError) {
        stream = try Self.open(windowBits: windowBits)
        self.windowBits = windowBits
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    private static func open(windowBits: Int32) throws(GzipError) -> UnsafeMutablePointer<z_stream> {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let code = CHTTPPipelineZlib_inflateInit2(stream, windowBits)
        guard code == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .zlibFailure(message: "inflateInit2 returned \(code)")
        }
        return stream
    }

    /// Makes the stream ready for a new deflate stream, keeping its memory.
    ///
    /// - Parameter windowBits: ``raw`` or ``zlib``; the same as before by default.
    mutating func reset(windowBits: Int32? = nil) throws(GzipError) {
        let bits = windowBits ?? self.windowBits
        let code = inflateReset2(stream, bits)
        guard code == Z_OK else { throw .zlibFailure(message: "inflateReset2 returned \(code)") }
        self.windowBits = bits
    }

    /// Inflates one deflate stream starting at `input[offset]` into `output`.
    ///
    /// - Parameters:
    ///   - input: The whole body.
    ///   - offset: Where the stream starts.
    ///   - output: Receives the decoded bytes; grows as needed, never past its limit.
    ///   - crc: Updated with the CRC-32 of the bytes decoded, when not `nil`.
    /// - Returns: The offset just past the stream's last byte.
    /// - Throws: ``GzipError`` for truncated, corrupt or over-limit data.
    mutating func inflate(
        _ input: UnsafeRawBufferPointer,
        from offset: Int,
        into output: inout OutputBuffer,
        crc: inout UInt32?
    ) throws(GzipError) -> Int {
        guard let inputBase = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw .truncated
        }
        var fed = offset
        stream.pointee.avail_in = 0
        while true {
            if stream.pointee.avail_in == 0, fed < input.count {
                let count = min(input.count - fed, Int(UInt32.max))
                stream.pointee.next_in = UnsafeMutablePointer(mutating: inputBase + fed)
                stream.pointee.avail_in = UInt32(count)
                fed += count
            }
            if output.available == 0 { try output.grow() }
            guard let end = output.end else { throw .zlibFailure(message: "no output buffer") }
            let room = min(output.available, Self.outputChunk)
            stream.pointee.next_out = end
            stream.pointee.avail_out = UInt32(room)
            let code = CHTTPPipelineZlib.inflate(stream, Z_NO_FLUSH)
            let produced = room - Int(stream.pointee.avail_out)
            if let running = crc, produced > 0 {
                crc = UInt32(truncatingIfNeeded: crc32(uLong(running), end, UInt32(produced)))
            }
            output.count += produced
            try output.checkLimit()
            switch code {
            case Z_STREAM_END:
                return fed - Int(stream.pointee.avail_in)
            case Z_OK:
                continue
            case Z_BUF_ERROR:
                // No progress: either the input ran out (truncated) or the output is full, in
                // which case the next round grows it.
                if stream.pointee.avail_in == 0, fed == input.count { throw .truncated }
            case Z_NEED_DICT:
                throw .badHeader(reason: "the stream needs a preset dictionary")
            case Z_DATA_ERROR:
                throw dataError()
            case Z_MEM_ERROR:
                throw .zlibFailure(message: "out of memory")
            default:
                throw .zlibFailure(message: "inflate returned \(code)")
            }
        }
    }

    /// One zlib call for a stream fed in pieces (``StreamingInflater``): inflates from `input`
    /// into `output` as far as either goes.
    ///
    /// Called with empty input it still writes what zlib holds back (the rest of a long match
    /// that did not fit the last output).
    ///
    /// - Parameters:
    ///   - input: The next compressed bytes; may be empty.
    ///   - output: Where the decoded bytes go.
    ///   - capacity: How many bytes `output` has room for; at least 1.
    /// - Returns: How many input bytes were used, how many decoded bytes were written, and
    ///   whether the deflate stream ended (its trailer, if zlib-wrapped, verified). No progress
    ///   at all (0 and 0) means zlib needs more input.
    /// - Throws: ``GzipError`` for corrupt data, a wrong Adler-32, a preset dictionary, or zlib failing.
    mutating func step(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutablePointer<UInt8>,
        capacity: Int
    ) throws(GzipError) -> (consumed: Int, produced: Int, ended: Bool) {
        let offered = min(input.count, Int(UInt32.max))
        let room = min(capacity, Int(UInt32.max))
        stream.pointee.next_in = input.baseAddress.map {
            UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self))
        }
        stream.pointee.avail_in = UInt32(offered)
        stream.pointee.next_out = output
        stream.pointee.avail_out = UInt32(room)
        let code = CHTTPPipelineZlib.inflate(stream, Z_NO_FLUSH)
        let consumed = offered - Int(stream.pointee.avail_in)
        let produced = room - Int(stream.pointee.avail_out)
        // zlib keeps no pointer into the input between calls: the caller's bytes may go.
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        switch code {
        case Z_STREAM_END: return (consumed, produced, true)
        case Z_OK, Z_BUF_ERROR: return (consumed, produced, false)
        case Z_NEED_DICT: throw .badHeader(reason: "the stream needs a preset dictionary")
        case Z_DATA_ERROR: throw dataError()
        case Z_MEM_ERROR: throw .zlibFailure(message: "out of memory")
        default: throw .zlibFailure(message: "inflate returned \(code)")
        }
    }

    /// The typed error for zlib's `Z_DATA_ERROR`, from its message.
    private func dataError() -> GzipError {
        let message = stream.pointee.msg.map { String(cString: $0) } ?? "invalid compressed data"
        switch message {
        case "incorrect data check": return .checksumMismatch(.adler32)
        case "incorrect header check", "unknown compression method", "invalid window size":
            return .badHeader(reason: message)
        default: return .corrupt(message: message)
        }
    }
}

import CHTTPPipelineZlib

/// The framing of gzip (RFC 1952) and zlib (RFC 1950) streams: headers, trailers, magic bytes.
enum GzipFraming {
    /// The flag bits of a gzip header.
    enum Flag {
        static let headerCRC: UInt8 = 0x02
        static let extra: UInt8 = 0x04
        static let name: UInt8 = 0x08
        static let comment: UInt8 = 0x10
        static let reserved: UInt8 = 0xE0
    }

    /// Whether `input` starts a gzip member at `offset` (ID1 0x1f, ID2 0x8b).
    static func startsGzipMember(_ input: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        input.count - offset >= 2 && input[offset] == 0x1f && input[offset + 1] == 0x8b
    }

    /// Whether `input` starts with a valid zlib header: deflate method, a window of at most
    /// 32 KiB and a correct check (RFC 1950 §2.2). A preset dictionary still counts: zlib
    /// reports it.
    static func startsZlibStream(_ input: UnsafeRawBufferPointer) -> Bool {
        guard input.count >= 2 else { return false }
        let cmf = input[0]
        let flg = input[1]
        return cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
    }

    /// Parses the gzip member header at `start` (which starts with the magic bytes) and returns
    /// the offset of its first deflate byte.
    ///
    /// Every optional field is read and skipped: FEXTRA (length-prefixed), FNAME and FCOMMENT
    /// (zero-terminated); FHCRC is verified.
    ///
    /// - Throws: ``GzipError/truncated`` when the header is cut short, ``GzipError/badHeader(reason:)``
    ///   for a method other than deflate or reserved flags, ``GzipError/checksumMismatch(_:)``
    ///   for a wrong header CRC.
    static func endOfGzipHeader(_ input: UnsafeRawBufferPointer, at start: Int) throws(GzipError) -> Int {
        guard input.count - start >= 10 else { throw .truncated }
        let method = input[start + 2]
        let flags = input[start + 3]
        guard method == 8 else { throw .badHeader(reason: "compression method \(method) is not deflate") }
        guard flags & Flag.reserved == 0 else { throw .badHeader(reason: "reserved flag bits are set") }
        var position = start + 10
        if flags & Flag.extra != 0 {
            guard input.count - position >= 2 else { throw .truncated }
            let length = Int(littleEndian16(input, at: position))
            position += 2
            guard input.count - position >= length else { throw .truncated }
            position += length
        }
        for flag in [Flag.name, Flag.comment] where flags & flag != 0 {
            guard let zero = input[position...].firstIndex(of: 0) else { throw .truncated }
            position = zero + 1
        }
        if flags & Flag.headerCRC != 0 {
            guard input.count - position >= 2 else { throw .truncated }
            let stored = littleEndian16(input, at: position)
            let header = UnsafeRawBufferPointer(rebasing: input[start..<position])
            let computed = crc32(0, header.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(header.count))
            guard UInt16(truncatingIfNeeded: computed) == stored else { throw .checksumMismatch(.headerCRC) }
            position += 2
        }
        return position
    }

    /// Checks a gzip member's trailer at `offset` against what was decoded, and returns the offset
    /// just past it.
    static func checkGzipTrailer(
        _ input: UnsafeRawBufferPointer,
        at offset: Int,
        crc: UInt32,
        decodedCount: Int
    ) throws(GzipError) -> Int {
        guard input.count - offset >= 8 else { throw .truncated }
        guard littleEndian32(input, at: offset) == crc else { throw .checksumMismatch(.crc32) }
        guard littleEndian32(input, at: offset + 4) == UInt32(truncatingIfNeeded: decodedCount) else {
            throw .checksumMismatch(.length)
        }
        return offset + 8
    }

    /// Accepts zero padding after the end of the last stream (as GNU gzip does) and refuses
    /// anything else.
    static func checkTrailingBytes(_ input: UnsafeRawBufferPointer, from offset: Int) throws(GzipError) {
        guard offset < input.count else { return }
        if input[offset...].contains(where: { $0 != 0 }) {
            throw .trailingData(byteCount: input.count - offset)
        }
    }

    /// The size the last gzip member claims for itself (ISIZE, the last four bytes), if the body
    /// could be one gzip member.
    static func claimedSize(_ input: UnsafeRawBufferPointer) -> Int? {
        guard input.count >= 18 else { return nil }
        return Int(littleEndian32(input, at: input.count - 4))
    }

    static func littleEndian16(_ input: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        UInt16(input[offset]) | UInt16(input[offset + 1]) << 8
    }

    static func littleEndian32(_ input: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(input[offset]) | UInt32(input[offset + 1]) << 8
            | UInt32(input[offset + 2]) << 16 | UInt32(input[offset + 3]) << 24
    }
}

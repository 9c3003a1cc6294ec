import CHTTPPipelineZlib

/// A gzip member header (RFC 1952 §2.3) read as its bytes arrive, split anywhere: the same checks
/// as ``GzipFraming/endOfGzipHeader(_:at:)``, in the same order, without holding the header.
///
/// FEXTRA is skipped by its length, FNAME and FCOMMENT up to their zero byte, however long; the
/// CRC-32 of every header byte is kept as they pass, so FHCRC is verified without storing them.
struct GzipHeaderParser {
    /// The part of the header being read.
    private enum Field {
        /// The ten fixed bytes: magic, method, flags, time, extra flags, system.
        case fixed
        /// FEXTRA's two-byte length.
        case extraLength
        /// FEXTRA's data: this many bytes left.
        case extra(remaining: Int)
        /// FNAME, up to its zero byte.
        case name
        /// FCOMMENT, up to its zero byte.
        case comment
        /// FHCRC: the low 16 bits of the CRC-32 of the header before it.
        case headerCRC
        case done
    }

    private typealias Flag = GzipFraming.Flag

    private var field = Field.fixed
    private var flags: UInt8 = 0
    /// The bytes of a fixed-size field being gathered.
    private var bytes: [UInt8] = []
    /// The CRC-32 of the header bytes read so far.
    private var crc: uLong = 0

    /// Reads header bytes from `input`.
    ///
    /// - Returns: `true` once the header is complete (its bytes used, the deflate data next);
    ///   `false` when `input` ran out first.
    /// - Throws: ``GzipError/badHeader(reason:)`` for a method other than deflate or reserved
    ///   flags, ``GzipError/checksumMismatch(_:)`` for a wrong header CRC.
    mutating func parse(_ input: inout StreamInput) throws(GzipError) -> Bool {
        while true {
            switch field {
            case .fixed:
                guard gather(10, from: &input) else { return false }
                let method = bytes[2]
                flags = bytes[3]
                guard method == 8 else { throw .badHeader(reason: "compression method \(method) is not deflate") }
                guard flags & Flag.reserved == 0 else { throw .badHeader(reason: "reserved flag bits are set") }
                bytes.removeAll(keepingCapacity: true)
                field = after(.fixed)
            case .extraLength:
                guard gather(2, from: &input) else { return false }
                field = .extra(remaining: Int(bytes[0]) | Int(bytes[1]) << 8)
                bytes.removeAll(keepingCapacity: true)
            case .extra(let remaining):
                guard remaining > 0 else {
                    field = after(.extraLength)
                    continue
                }
                let used = input.withFront { front -> Int in
                    let used = min(remaining, front.count)
                    checksum(UnsafeRawBufferPointer(rebasing: front[0..<used]))
                    return used
                }
                guard used > 0 else { return false }
                input.advance(by: used)
                field = .extra(remaining: remaining - used)
            case .name, .comment:
                let (used, ended) = input.withFront { front -> (Int, Bool) in
                    let zero = front.firstIndex(of: 0)
                    let used = zero.map { $0 + 1 } ?? front.count
                    checksum(UnsafeRawBufferPointer(rebasing: front[0..<used]))
                    return (used, zero != nil)
                }
                guard used > 0 else { return false }
                input.advance(by: used)
                if ended { field = after(field) }
            case .headerCRC:
                let computed = crc
                guard gather(2, from: &input, checksummed: false) else { return false }
                let stored = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
                guard UInt16(truncatingIfNeeded: computed) == stored else { throw .checksumMismatch(.headerCRC) }
                bytes.removeAll(keepingCapacity: true)
                field = .done
            case .done:
                return true
            }
        }
    }

    /// Moves bytes to `bytes` until it has `count` (the field's caller empties it once read).
    private mutating func gather(_ count: Int, from input: inout StreamInput, checksummed: Bool = true) -> Bool {
        let before = bytes.count
        let complete = input.collect(into: &bytes, upTo: count)
        if checksummed, bytes.count > before {
            bytes[before...].withUnsafeBytes { checksum($0) }
        }
        return complete
    }

    private mutating func checksum(_ header: UnsafeRawBufferPointer) {
        guard let base = header.baseAddress, header.count > 0 else { return }
        crc = crc32(crc, base.assumingMemoryBound(to: UInt8.self), UInt32(header.count))
    }

    /// The field that follows `field`, given the flags.
    private func after(_ field: Field) -> Field {
        switch field {
        case .fixed:
            if flags & Flag.extra != 0 { return .extraLength }
            fallthrough
        case .extraLength, .extra:
            if flags & Flag.name != 0 { return .name }
            fallthrough
        case .name:
            if flags & Flag.comment != 0 { return .comment }
            fallthrough
        case .comment:
            if flags & Flag.headerCRC != 0 { return .headerCRC }
            return .done
        case .headerCRC, .done:
            return .done
        }
    }
}

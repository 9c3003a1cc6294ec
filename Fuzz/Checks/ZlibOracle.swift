import CHTTPPipelineZlib

/// An independent reading of the same bytes, with zlib doing all the framing itself: gzip
/// headers and trailers (window bits 31), the zlib wrapper (15), or nothing (-15). One call of
/// `inflate` over the whole input into one buffer, none of the decoder's streaming, growing,
/// fallback or member logic.
enum ZlibOracle {
    /// What zlib made of one stream.
    enum Reading: Equatable {
        /// The stream ended; `consumed` input bytes made these bytes.
        case ended([UInt8], consumed: Int)
        /// The stream would decode to more than the room given.
        case overflow
        /// zlib refused the stream, or the input ended before the stream did.
        case failed
    }

    static let gzip: Int32 = 31
    static let zlib: Int32 = 15
    static let raw: Int32 = -15

    /// Inflates one stream from `input[offset...]`, with at most `room` output bytes.
    static func inflateOne(_ input: UnsafeRawBufferPointer, from offset: Int, windowBits: Int32, room: Int) -> Reading {
        var stream = z_stream()
        guard CHTTPPipelineZlib_inflateInit2(&stream, windowBits) == Z_OK else { return .failed }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: room + 1)
        defer { output.deallocate() }
        let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.next_in = base.map { UnsafeMutablePointer(mutating: $0 + offset) }
        stream.avail_in = UInt32(input.count - offset)
        stream.next_out = output
        stream.avail_out = UInt32(room + 1)
        let code = inflate(&stream, Z_FINISH)
        let produced = room + 1 - Int(stream.avail_out)
        guard code == Z_STREAM_END else {
            // Out of room with input left, or data that needs more room: more than `room`.
            if produced > room { return .overflow }
            return .failed
        }
        guard produced <= room else { return .overflow }
        return .ended(
            Array(UnsafeBufferPointer(start: output, count: produced)),
            consumed: input.count - offset - Int(stream.avail_in))
    }

    /// Whether everything from `offset` on is zero padding.
    static func onlyZeros(_ input: UnsafeRawBufferPointer, from offset: Int) -> Bool {
        input[offset...].allSatisfy { $0 == 0 }
    }

    /// What the decoder must make of `input` read as deflate: the zlib-wrapped reading when it
    /// ends before nothing but zero padding, else the raw reading under the same condition,
    /// else a failure. `nil` when a reading would pass `room` (the decoder stops at its limit).
    static func deflate(_ input: UnsafeRawBufferPointer, room: Int) -> [UInt8]?? {
        for windowBits in [zlib, raw] {
            switch inflateOne(input, from: 0, windowBits: windowBits, room: room) {
            case .overflow: return nil
            case .ended(let bytes, let consumed) where onlyZeros(input, from: consumed): return .some(bytes)
            case .ended, .failed: continue
            }
        }
        return .some(nil)
    }

    /// What the decoder must make of `input` read as gzip: every member (each starting with the
    /// magic bytes right after the previous one) read by zlib, followed by nothing but zero
    /// padding; else a failure. `nil` when the members would pass `room`.
    static func gzip(_ input: UnsafeRawBufferPointer, room: Int) -> [UInt8]?? {
        var decoded: [UInt8] = []
        var offset = 0
        repeat {
            switch inflateOne(input, from: offset, windowBits: gzip, room: room - decoded.count) {
            case .overflow: return nil
            case .failed: return .some(nil)
            case .ended(let bytes, let consumed):
                decoded += bytes
                offset += consumed
            }
        } while input.count - offset >= 2 && input[offset] == 0x1f && input[offset + 1] == 0x8b
        return onlyZeros(input, from: offset) ? .some(decoded) : .some(nil)
    }
}

import CHTTPPipelineZlib
package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One content coding decoded as its bytes arrive: given chunks of any size, split anywhere, it
/// hands out decoded chunks of at most ``outputStep`` bytes, with the checks of
/// ``GzipDecoder`` made as far as the bytes received allow.
///
/// - gzip: one or more members; each header read as it arrives (``GzipHeaderParser``), each
///   member's CRC-32 and length verified against its trailer; zero padding after the last member
///   ignored, any other byte ``GzipError/trailingData(byteCount:)`` (counted to the end of the
///   input, as the buffered decoder counts it).
/// - deflate: zlib-wrapped when the first two bytes are a valid zlib header, raw otherwise, or
///   when the zlib reading fails. Which one is *probed* on the first ``probeWindow`` bytes, decoded
///   and thrown away (but counted against the limit); the bytes are kept and decoded again for
///   real once the format is settled. A failure after the probe window is an error, where the
///   buffered decoder, holding the whole body, would still have tried raw deflate. Never seen in
///   practice: bytes that are not what they are read as fail within a few dozen bytes.
/// - Strict: a body that does not start like gzip, or that fails the deflate probe, is the error
///   the buffered decoder throws for it.
///
/// Limits: `next(limit:)` takes the limit for the bytes received so far; the moment the decoded
/// total passes it, it throws ``GzipError/limitExceeded(_:)`` without handing out that step's
/// bytes, so no byte past the limit is ever handed out.
///
/// Not `Sendable`: it belongs to the one reader of one body. The zlib stream (in ``Inflater``) is
/// freed by `deinit` on every path, the reader finishing, failing or dropping the body.
package final class StreamingInflater {
    /// What a call to ``next(limit:)`` found.
    package enum Step {
        /// Decoded bytes; never empty.
        case output(Data)
        /// Nothing more without more input: call ``append(_:)`` or ``finish()``.
        case needsInput
        /// The input ended and everything decoded was handed out, every check passed.
        case finished
    }

    /// The most decoded bytes handed out by one step: 120 KiB.
    ///
    /// Below glibc's `malloc` threshold for `mmap` (128 KiB until a large block is freed), so every
    /// step's buffer comes from the heap and reuses its memory. At 256 KiB every step mapped fresh
    /// pages, faulted each one in and unmapped them again: 64 MiB of JSON streamed in 16 KiB chunks
    /// took 115 ms (16,000 page faults) against 81 ms for zlib alone; at 120 KiB, 81 ms, and fewer
    /// steps than at 64 KiB (86 ms).
    package static let outputStep = 120 << 10
    /// How many input bytes decide a deflate body's format: 4 KiB. Over 3,000 generated JSON, HTML
    /// and random bodies, raw deflate reading failed within 105 bytes.
    package static let probeWindow = 4 << 10
    /// Decoded bytes up to this size are copied into a `Data` of their size and the output buffer
    /// kept; larger ones are handed over as they are.
    private static let copyBelow = 16 << 10
    private static let probeScratchSize = 64 << 10

    /// Why a deflate probe failed.
    enum ProbeFailure {
        case error(GzipError)
        /// Non-zero bytes after the end of the stream, which ended after this many input bytes:
        /// the count to report is known when the input ends.
        case trailing(from: Int)

        func error(inputCount: Int) -> GzipError {
            switch self {
            case .error(let error): error
            case .trailing(let end): .trailingData(byteCount: inputCount - end)
            }
        }
    }

    /// One attempt at reading a deflate body in one format.
    private struct Probe {
        var windowBits: Int32
        /// Why the zlib attempt failed, when this is the raw attempt after it.
        var zlibFailure: ProbeFailure?
        /// Input bytes read by this attempt, trailing bytes included.
        var used = 0
        /// Bytes decoded (and thrown away) by this attempt.
        var decoded = 0
        /// The input bytes of the deflate stream, once it ended.
        var streamEnd: Int?
    }

    private enum Phase {
        /// The body's first two bytes: gzip's magic, or a plain body.
        case gzipStart
        case gzipHeader(GzipHeaderParser)
        case gzipData
        case gzipTrailer
        /// After a member's trailer: another member, or the end (padding or trailing data).
        case gzipNext
        /// The first two bytes: a zlib header?
        case deflateStart
        case probe(Probe)
        case deflateData
        /// After the last stream: bytes counted, whether any is not zero.
        case trailing(count: Int, nonZero: Bool)
        /// A failed probe's trailing data, thrown once the input ends and its size is known.
        case failing(trailingFrom: Int)
        case finished
    }

    private var inflater: Inflater
    private var phase: Phase
    private var input = StreamInput()
    private var inputEnded = false
    /// Bytes handed out (decoded), for the limit.
    private var produced = 0
    private var memberCRC: uLong = 0
    private var memberSize = 0
    private var members = 0
    private var trailer: [UInt8] = []
    /// An output buffer that a step left empty, for the next one.
    private var spare: UnsafeMutablePointer<UInt8>?
    private var spareCapacity = 0
    private var probeScratch: UnsafeMutablePointer<UInt8>?

    /// Starts decoding a body.
    ///
    /// - Parameters:
    ///   - coding: The body's coding.
    /// - Throws: ``GzipError/zlibFailure(message:)`` when zlib cannot set up a stream.
    package init(_ coding: GzipDecoder.Coding) throws(GzipError) {
        inflater = try Inflater(windowBits: Inflater.raw)
        phase = coding == .gzip ? .gzipStart : .deflateStart
    }

    deinit {
        free(spare)
        free(probeScratch)
    }

    /// Whether the decoder knows the body's format: after gzip's magic bytes or the deflate probe.
    package var isDecided: Bool {
        switch phase {
        case .gzipStart, .deflateStart, .probe: false
        default: true
        }
    }

    /// Adds the next bytes of the body.
    package func append(_ chunk: Data) {
        input.append(chunk)
    }

    /// Says that the body has no more bytes.
    package func finish() {
        inputEnded = true
    }

    /// Reads as far as needed to know the body's format.
    ///
    /// - Parameter limit: The limit for the bytes received so far.
    /// - Returns: Whether it is known (``isDecided``); `false` when more input is needed.
    /// - Throws: ``GzipError`` as ``next(limit:)`` does.
    package func decide(limit: OutputLimit) throws(GzipError) -> Bool {
        while !isDecided {
            guard try advanceUndecided(limit: limit) else { return false }
        }
        return true
    }

    /// The next decoded bytes, or what is needed to get them.
    ///
    /// - Parameter limit: The limit for the bytes received so far.
    /// - Throws: ``GzipError`` for a body that is cut short, corrupt, fails a check, has trailing
    ///   data, or passes the limit.
    package func next(limit: OutputLimit) throws(GzipError) -> Step {
        while true {
            switch phase {
            case .gzipStart, .deflateStart, .probe:
                guard try advanceUndecided(limit: limit) else { return .needsInput }
            case .gzipHeader(var parser):
                let done = try parser.parse(&input)
                phase = .gzipHeader(parser)
                guard done else {
                    if inputEnded { throw .truncated }
                    return .needsInput
                }
                if members > 0 { try inflater.reset() }
                members += 1
                memberCRC = 0
                memberSize = 0
                phase = .gzipData
            case .gzipData, .deflateData:
                if let step = try inflate(limit: limit) { return step }
            case .gzipTrailer:
                guard input.collect(into: &trailer, upTo: 8) else {
                    if inputEnded { throw .truncated }
                    return .needsInput
                }
                guard littleEndian32(trailer, at: 0) == UInt32(truncatingIfNeeded: memberCRC) else {
                    throw .checksumMismatch(.crc32)
                }
                guard littleEndian32(trailer, at: 4) == UInt32(truncatingIfNeeded: memberSize) else {
                    throw .checksumMismatch(.length)
                }
                trailer.removeAll(keepingCapacity: true)
                phase = .gzipNext
            case .gzipNext:
                let start = input.peek(2)
                if start.count < 2, !inputEnded { return .needsInput }
                phase = start == [0x1f, 0x8b] ? .gzipHeader(GzipHeaderParser()) : .trailing(count: 0, nonZero: false)
            case .trailing(var count, var nonZero):
                while let chunk = input.takeFront() {
                    count += chunk.count
                    if !nonZero { nonZero = chunk.contains { $0 != 0 } }
                }
                guard inputEnded else {
                    phase = .trailing(count: count, nonZero: nonZero)
                    return .needsInput
                }
                if nonZero { throw .trailingData(byteCount: count) }
                phase = .finished
            case .failing(let end):
                while input.takeFront() != nil {}
                guard inputEnded else { return .needsInput }
                throw .trailingData(byteCount: input.appended - end)
            case .finished:
                return .finished
            }
        }
    }

    // MARK: - Deciding

    /// One move of an undecided phase; `false` when it needs more input.
    private func advanceUndecided(limit: OutputLimit) throws(GzipError) -> Bool {
        switch phase {
        case .gzipStart:
            let start = input.peek(2)
            if start.count < 2, !inputEnded { return false }
            if start == [0x1f, 0x8b] {
                phase = .gzipHeader(GzipHeaderParser())
                return true
            }
            throw .badHeader(reason: "the body does not start with the gzip magic bytes")
        case .deflateStart:
            let start = input.peek(2)
            if start.count < 2, !inputEnded { return false }
            if start.isEmpty { throw .truncated }
            let zlib = start.count == 2 && Self.startsZlibStream(start[0], start[1])
            let windowBits = zlib ? Inflater.zlib : Inflater.raw
            try inflater.reset(windowBits: windowBits)
            input.startRetaining()
            phase = .probe(Probe(windowBits: windowBits))
        case .probe(var probe):
            let outcome: ProbeFailure?
            do throws(GzipError) {
                guard let result = try runProbe(&probe, limit: limit) else {
                    phase = .probe(probe)
                    return false
                }
                outcome = result
            } catch {
                // Only a limit (or zlib itself failing) ends the probe by throwing.
                freeProbeScratch()
                throw error
            }
            try settle(probe, failure: outcome)
        default:
            break
        }
        return true
    }

    /// Moves on from a finished attempt: to decoding for real, to the raw attempt, or to an error.
    private func settle(_ probe: Probe, failure: ProbeFailure?) throws(GzipError) {
        input.rewind()
        guard let failure else {
            freeProbeScratch()
            input.stopRetaining()
            try inflater.reset(windowBits: probe.windowBits)
            phase = .deflateData
            return
        }
        if probe.windowBits == Inflater.zlib {
            try inflater.reset(windowBits: Inflater.raw)
            phase = .probe(Probe(windowBits: Inflater.raw, zlibFailure: failure))
            return
        }
        freeProbeScratch()
        input.stopRetaining()
        let reported = probe.zlibFailure ?? failure
        switch reported {
        case .error(let error): throw error
        case .trailing(let end): phase = .failing(trailingFrom: end)
        }
    }

    /// Reads the body in the attempt's format, throwing the bytes away.
    ///
    /// - Returns: `nil` when it needs more input; `.some(nil)` when the attempt succeeded (the
    ///   window read, or the whole body, without a failure); `.some(failure)` when it failed.
    /// - Throws: ``GzipError/limitExceeded(_:)``, whatever the format.
    private func runProbe(_ probe: inout Probe, limit: OutputLimit) throws(GzipError) -> ProbeFailure?? {
        let scratch: UnsafeMutablePointer<UInt8>
        if let existing = probeScratch {
            scratch = existing
        } else {
            guard let allocated = malloc(Self.probeScratchSize) else {
                throw .zlibFailure(message: "could not allocate \(Self.probeScratchSize) bytes")
            }
            scratch = allocated.assumingMemoryBound(to: UInt8.self)
            probeScratch = scratch
        }
        while probe.used < Self.probeWindow {
            if let end = probe.streamEnd {
                let (count, nonZero) = input.withFront { front in (front.count, front.contains { $0 != 0 }) }
                guard count > 0 else { return inputEnded ? .some(nil) : nil }
                if nonZero { return .some(.trailing(from: end)) }
                input.advance(by: count)
                probe.used += count
                continue
            }
            let room = min(Self.probeScratchSize, limit.bytes + 1 - probe.decoded)
            let consumed: Int
            let decoded: Int
            let ended: Bool
            switch inflateStep(into: scratch, capacity: room) {
            case .success(let result): (consumed, decoded, ended) = result
            case .failure(let error): return .some(.error(error))
            }
            input.advance(by: consumed)
            probe.used += consumed
            probe.decoded += decoded
            if probe.decoded > limit.bytes { throw .limitExceeded(limit.error) }
            if ended {
                probe.streamEnd = probe.used
            } else if consumed == 0, decoded == 0 {
                guard inputEnded else { return nil }
                return .some(.error(.truncated))
            }
        }
        return .some(nil)
    }

    private func freeProbeScratch() {
        free(probeScratch)
        probeScratch = nil
    }

    // MARK: - Decoding

    /// One zlib call on the front of the input.
    private func inflateStep(
        into output: UnsafeMutablePointer<UInt8>,
        capacity: Int
    ) -> Result<(Int, Int, Bool), GzipError> {
        input.withFront { front in
            do throws(GzipError) {
                return .success(try inflater.step(front, into: output, capacity: capacity))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Decodes up to one output step.
    ///
    /// - Returns: The step to hand out, or `nil` when the deflate stream ended with nothing more
    ///   to hand out (the phase has moved on).
    private func inflate(limit: OutputLimit) throws(GzipError) -> Step? {
        let room = min(Self.outputStep, limit.bytes + 1 - produced)
        let buffer = try outputBuffer(capacity: room)
        let checksummed: Bool
        if case .gzipData = phase { checksummed = true } else { checksummed = false }
        var filled = 0
        var ended = false
        while filled < room {
            let step = inflateStep(into: buffer + filled, capacity: room - filled)
            let consumed: Int
            let decoded: Int
            switch step {
            case .success(let result): (consumed, decoded, ended) = result
            case .failure(let error):
                keepSpare(buffer, capacity: room)
                throw error
            }
            input.advance(by: consumed)
            if checksummed, decoded > 0 {
                memberCRC = crc32(memberCRC, buffer + filled, UInt32(decoded))
                memberSize &+= decoded
            }
            filled += decoded
            if ended || (consumed == 0 && decoded == 0) { break }
        }
        produced += filled
        if produced > limit.bytes {
            keepSpare(buffer, capacity: room)
            throw .limitExceeded(limit.error)
        }
        if ended { phase = checksummed ? .gzipTrailer : .trailing(count: 0, nonZero: false) }
        if filled > 0 { return .output(handOut(buffer, count: filled, capacity: room)) }
        keepSpare(buffer, capacity: room)
        if ended { return nil }
        // zlib made no progress: it needs input that will not come.
        if inputEnded { throw .truncated }
        return .needsInput
    }

    /// A buffer of at least `capacity` bytes: the spare one if it is large enough.
    private func outputBuffer(capacity: Int) throws(GzipError) -> UnsafeMutablePointer<UInt8> {
        if let spare, spareCapacity >= capacity {
            self.spare = nil
            return spare
        }
        free(spare)
        spare = nil
        guard let allocated = malloc(capacity) else {
            throw .zlibFailure(message: "could not allocate \(capacity) bytes for the decoded body")
        }
        return allocated.assumingMemoryBound(to: UInt8.self)
    }

    private func keepSpare(_ buffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        free(spare)
        spare = buffer
        spareCapacity = capacity
    }

    /// The first `count` bytes of `buffer` as `Data`: copied when few (the buffer kept for the
    /// next step), otherwise the buffer itself, trimmed to size, without a copy.
    private func handOut(_ buffer: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int) -> Data {
        if count <= Self.copyBelow {
            let data = Data(bytes: buffer, count: count)
            keepSpare(buffer, capacity: capacity)
            return data
        }
        var pointer = buffer
        // Shrinking does not move the block: it gives the tail back.
        if count < capacity, let trimmed = realloc(buffer, count) {
            pointer = trimmed.assumingMemoryBound(to: UInt8.self)
        }
        return Data(bytesNoCopy: pointer, count: count, deallocator: .free)
    }

    // MARK: - Framing

    /// RFC 1950 §2.2, as ``GzipFraming/startsZlibStream(_:)``.
    private static func startsZlibStream(_ cmf: UInt8, _ flg: UInt8) -> Bool {
        cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
    }

    private func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}

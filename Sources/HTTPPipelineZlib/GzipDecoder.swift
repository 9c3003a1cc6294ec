package import Foundation

/// Decodes gzip and deflate bodies in memory, bounded by a limit.
///
/// - gzip: one or more members (RFC 1952), each header parsed here (FEXTRA, FNAME, FCOMMENT,
///   FHCRC), each member's CRC-32 and length verified. Zero padding after the last member is
///   ignored, any other trailing byte is ``GzipError/trailingData(byteCount:)``.
/// - deflate: zlib-wrapped (RFC 1950, Adler-32 verified) when the body starts with a valid zlib
///   header, raw (RFC 1951) otherwise, or when the zlib reading fails (as browsers do: some
///   servers send raw deflate whose first bytes happen to look like a zlib header).
///
/// The output buffer is sized from the input (for gzip, from the last member's ISIZE when that
/// is plausible), grows geometrically, and never passes the limit.
package enum GzipDecoder {
    /// A content coding the decoder handles.
    package enum Coding: Sendable, Equatable {
        case gzip
        case deflate
    }

    /// When a body that does not decode as the claimed coding is taken to be plain (already
    /// decoded by the transport) instead of an error.
    package enum PlainBody: Sendable, Equatable {
        /// Never: any failure is an error.
        case never
        /// When it does not start like the coding (gzip without its magic bytes). A body that
        /// starts like it and then fails is an error.
        case whenUnrecognised
        /// Also when it fails to decode for any reason other than a limit: for deflate, whose
        /// raw form has no magic bytes to recognise.
        case whenUndecodable
    }

    /// What decoding found.
    package enum Outcome: Sendable, Equatable {
        /// The decoded bytes.
        case decoded(Data)
        /// The body is not encoded as claimed and is to be taken as it is.
        case plain
    }

    /// The most a deflate stream expands: 258 bytes from about two bits, about 1032:1.
    static let deflateMaximumRatio = 1_032

    /// Decodes `data`, or finds it plain.
    ///
    /// - Parameters:
    ///   - data: The encoded body.
    ///   - coding: The coding it claims.
    ///   - limit: The most decoded bytes, and the limit to report when passed.
    ///   - plainBody: When a body that does not decode is taken as plain instead of an error.
    ///   - statistics: Receives what the decoder allocated.
    /// - Returns: The decoded bytes, or ``Outcome/plain``.
    /// - Throws: ``GzipError``; a limit is always thrown, whatever `plainBody` says.
    package static func decode(
        _ data: Data,
        as coding: Coding,
        limit: OutputLimit,
        plainBody: PlainBody = .never,
        statistics: inout DecodeStatistics
    ) throws(GzipError) -> Outcome {
        let result = data.withUnsafeBytes { input -> Result<Outcome, GzipError> in
            var output = OutputBuffer(limit: limit)
            defer { statistics = output.statistics }
            do throws(GzipError) {
                let outcome: Outcome
                switch coding {
                case .gzip:
                    outcome = try gzip(input, into: &output, plainBody: plainBody)
                case .deflate:
                    outcome = try deflate(input, into: &output, plainBody: plainBody)
                }
                return .success(outcome)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes `data` strictly: every failure is an error.
    ///
    /// - Parameters:
    ///   - data: The encoded body.
    ///   - coding: Its coding.
    ///   - limit: The most decoded bytes; none by default.
    /// - Returns: The decoded bytes.
    /// - Throws: ``GzipError``.
    package static func decode(
        _ data: Data,
        as coding: Coding,
        limit: OutputLimit = .unlimited
    ) throws(GzipError) -> Data {
        var statistics = DecodeStatistics()
        switch try decode(data, as: coding, limit: limit, plainBody: .never, statistics: &statistics) {
        case .decoded(let decoded): return decoded
        case .plain: return data
        }
    }

    private static func gzip(
        _ input: UnsafeRawBufferPointer,
        into output: inout OutputBuffer,
        plainBody: PlainBody
    ) throws(GzipError) -> Outcome {
        guard GzipFraming.startsGzipMember(input, at: 0) else {
            if plainBody != .never { return .plain }
            throw .badHeader(reason: "the body does not start with the gzip magic bytes")
        }
        try output.grow(toAtLeast: initialCapacity(input.count, claimed: GzipFraming.claimedSize(input), output.limit))
        var inflater = try Inflater(windowBits: Inflater.raw)
        var offset = 0
        repeat {
            let dataStart = try GzipFraming.endOfGzipHeader(input, at: offset)
            if offset > 0 { try inflater.reset() }
            let memberStart = output.count
            var crc: UInt32? = 0
            let dataEnd = try inflater.inflate(input, from: dataStart, into: &output, crc: &crc)
            offset = try GzipFraming.checkGzipTrailer(
                input,
                at: dataEnd,
                crc: crc ?? 0,
                decodedCount: output.count - memberStart
            )
        } while GzipFraming.startsGzipMember(input, at: offset)
        try GzipFraming.checkTrailingBytes(input, from: offset)
        return .decoded(output.takeData())
    }

    private static func deflate(
        _ input: UnsafeRawBufferPointer,
        into output: inout OutputBuffer,
        plainBody: PlainBody
    ) throws(GzipError) -> Outcome {
        guard !input.isEmpty else {
            if plainBody != .never { return .plain }
            throw .truncated
        }
        try output.grow(toAtLeast: initialCapacity(input.count, claimed: nil, output.limit))
        var firstError: GzipError?
        if GzipFraming.startsZlibStream(input) {
            do throws(GzipError) {
                return .decoded(try inflateWhole(input, windowBits: Inflater.zlib, into: &output))
            } catch {
                if error.limit != nil { throw error }
                firstError = error
                output.reset()
            }
        }
        do throws(GzipError) {
            return .decoded(try inflateWhole(input, windowBits: Inflater.raw, into: &output))
        } catch {
            if error.limit != nil { throw error }
            if plainBody == .whenUndecodable { return .plain }
            throw firstError ?? error
        }
    }

    /// Inflates the whole of `input` as one stream followed by nothing but zero padding.
    private static func inflateWhole(
        _ input: UnsafeRawBufferPointer,
        windowBits: Int32,
        into output: inout OutputBuffer
    ) throws(GzipError) -> Data {
        var inflater = try Inflater(windowBits: windowBits)
        var noCRC: UInt32?
        let end = try inflater.inflate(input, from: 0, into: &output, crc: &noCRC)
        try GzipFraming.checkTrailingBytes(input, from: end)
        return output.takeData()
    }

    /// The first capacity for a body of `inputCount` bytes: the size it claims when that is
    /// plausible for deflate (between half the input and 1032 times it), otherwise four times the
    /// input (at least 16 KiB); never more than the limit allows.
    static func initialCapacity(_ inputCount: Int, claimed: Int?, _ limit: OutputLimit) -> Int {
        let ceiling = limit.bytes + 1
        let (most, overflow) = inputCount.multipliedReportingOverflow(by: deflateMaximumRatio)
        if let claimed, claimed >= inputCount / 2, overflow || claimed <= most {
            return min(ceiling, claimed + 1)
        }
        let (guess, guessOverflow) = inputCount.multipliedReportingOverflow(by: 4)
        return min(ceiling, guessOverflow ? ceiling : max(16 << 10, guess))
    }
}

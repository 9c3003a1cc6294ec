import Foundation
import HTTPPipelineGzip
import Testing

/// Decompression bombs made with zlib at test time, without ever holding the zeros they expand
/// to: one mebibyte of zeros compressed with a full flush always gives the same bytes, so a
/// stream of N MiB of zeros is those bytes N times, then an empty final block.
enum Bomb {
    static let mebibyte = 1 << 20

    /// Raw deflate of one MiB of zeros, ending byte-aligned with its history forgotten.
    static func zeroMebibyte() throws -> Data {
        var deflater = try Deflater(format: .raw, level: 9)
        var chunk = Data()
        try deflater.compress(Data(count: mebibyte), flush: .full, into: &chunk)
        return chunk
    }

    /// The pieces of one gzip member of `mebibytes` MiB of zeros: header, the repeated chunk,
    /// and the tail (empty final block, CRC-32, length).
    static func zerosMember(mebibytes: Int) throws -> (header: Data, chunk: Data, tail: Data) {
        let header = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x02, 0x03])
        let zeroCRC = CRC32.checksum(Data(count: mebibyte))
        var crc: UInt32 = 0
        for _ in 0..<mebibytes { crc = CRC32.combine(crc, zeroCRC, secondLength: mebibyte) }
        var tail = Data([0x03, 0x00])
        for value in [crc, UInt32(truncatingIfNeeded: mebibytes * mebibyte)] {
            withUnsafeBytes(of: value.littleEndian) { tail.append(contentsOf: $0) }
        }
        return (header, try zeroMebibyte(), tail)
    }

    /// A gzip body of `mebibytes` MiB of zeros (about 1 KB per MiB).
    static func gzipOfZeros(mebibytes: Int) throws -> Data {
        let (header, chunk, tail) = try zerosMember(mebibytes: mebibytes)
        var body = header
        for _ in 0..<mebibytes { body += chunk }
        return body + tail
    }

    /// `gzip(gzip(zeros))`, compressed as it is produced: the inner stream is never held whole.
    static func doubleGzipOfZeros(mebibytes: Int) throws -> Data {
        let (header, chunk, tail) = try zerosMember(mebibytes: mebibytes)
        var deflater = try Deflater(format: .gzip, level: 9)
        var body = Data()
        try deflater.compress(header, flush: .none, into: &body)
        for _ in 0..<mebibytes { try deflater.compress(chunk, flush: .none, into: &body) }
        try deflater.compress(tail, flush: .finish, into: &body)
        return body
    }
}

@Suite struct GzipLimitTests {
    @Test func theBombBuilderMakesValidStreams() throws {
        let zeros = try GzipDecoder.decode(try Bomb.gzipOfZeros(mebibytes: 3), as: .gzip)
        #expect(zeros == Data(count: 3 * Bomb.mebibyte))
        let double = try Bomb.doubleGzipOfZeros(mebibytes: 3)
        let inner = try GzipDecoder.decode(double, as: .gzip)
        #expect(try GzipDecoder.decode(inner, as: .gzip) == zeros)
    }

    @Test func tenGibibytesOfZerosFromUnder32KilobytesStopQuicklyAtTheRatioLimit() async throws {
        let body = try Bomb.doubleGzipOfZeros(mebibytes: 10 * 1024)
        #expect(body.count < 32 << 10, "\(body.count) bytes")
        let clock = ContinuousClock()
        let start = clock.now
        let error = await Support.gzipError(body, headers: ["Content-Encoding": "gzip, gzip"])
        #expect(error == .limitExceeded(.expansionRatio(100)))
        #expect(start.duration(to: clock.now) < .seconds(2))
    }

    @Test func tenGibibytesOfZerosStopAtTheSizeLimitWhenTheRatioAllowsThem() async throws {
        let body = try Bomb.doubleGzipOfZeros(mebibytes: 10 * 1024)
        let options = GzipOptions.default.limiting(decodedSize: 32 << 20, expansionRatio: 1_000_000)
        let clock = ContinuousClock()
        let start = clock.now
        let error = await Support.gzipError(body, headers: ["Content-Encoding": "gzip, gzip"], options: options)
        #expect(error == .limitExceeded(.decodedSize(32 << 20)))
        #expect(start.duration(to: clock.now) < .seconds(2))
    }

    @Test func aSingleMemberBombNeverGrowsItsBufferPastTheLimit() throws {
        let body = try Bomb.gzipOfZeros(mebibytes: 1024)
        let limit = OutputLimit(bytes: 16 << 20, error: .decodedSize(16 << 20))
        var statistics = DecodeStatistics()
        #expect(throws: GzipError.limitExceeded(.decodedSize(16 << 20))) {
            try GzipDecoder.decode(body, as: .gzip, limit: limit, statistics: &statistics)
        }
        #expect(statistics.peakCapacity <= limit.bytes + 1)
    }

    @Test func aBodyExactlyAtTheSizeLimitDecodesAndOneByteMoreIsRefused() async throws {
        let limit = 100_000
        let options = GzipOptions.default.limiting(decodedSize: limit, expansionRatio: 1_000)
        let exact = Data(repeating: 0x61, count: limit)
        let exactBody = try Deflater.compress(exact, format: .gzip)
        let (data, _) = try await Support.send(exactBody, headers: ["Content-Encoding": "gzip"], options: options)
        #expect(data.count == limit)
        let over = try Deflater.compress(exact + Data([0x61]), format: .gzip)
        let error = await Support.gzipError(over, headers: ["Content-Encoding": "gzip"], options: options)
        #expect(error == .limitExceeded(.decodedSize(limit)))
    }

    @Test func theExpansionRatioIsCheckedOnlyPastTheFloor() async throws {
        let small = try Bomb.gzipOfZeros(mebibytes: 1)  // ~1000:1, but only 1 MiB
        let (data, _) = try await Support.send(small, headers: ["Content-Encoding": "gzip"])
        #expect(data.count == GzipOptions.ratioFloor)
        let larger = try Bomb.gzipOfZeros(mebibytes: 4)
        let error = await Support.gzipError(larger, headers: ["Content-Encoding": "gzip"])
        #expect(error == .limitExceeded(.expansionRatio(100)))
    }

    @Test func theOutputBufferIsSizedFromAnHonestTrailerAndNeverGrows() throws {
        let plain = Support.generatedJSON(approximateSize: 1 << 20)
        let body = try Deflater.compress(plain, format: .gzip)
        var statistics = DecodeStatistics()
        let outcome = try GzipDecoder.decode(body, as: .gzip, limit: .unlimited, statistics: &statistics)
        #expect(outcome == .decoded(plain))
        #expect(statistics.growths == 0)
        #expect(statistics.peakCapacity == plain.count + 1)
    }

    @Test func aLyingTrailerCannotReserveMoreThanTheLimit() throws {
        var bytes = [UInt8](try Deflater.compress(Support.generatedJSON(approximateSize: 50_000), format: .gzip))
        // Claim 100 times the real size: plausible for deflate, but over the limit.
        let claimed = UInt32(5_000_000).littleEndian
        withUnsafeBytes(of: claimed) { bytes.replaceSubrange(bytes.count - 4..<bytes.count, with: $0) }
        let limit = OutputLimit(bytes: 1 << 20, error: .decodedSize(1 << 20))
        var statistics = DecodeStatistics()
        #expect(throws: GzipError.checksumMismatch(.length)) {
            try GzipDecoder.decode(Data(bytes), as: .gzip, limit: limit, statistics: &statistics)
        }
        #expect(statistics.peakCapacity == limit.bytes + 1)
    }

    @Test func withoutASizeHintTheBufferGrowsGeometrically() throws {
        let plain = Data(repeating: 0x61, count: 4 << 20)
        let body = try Deflater.compress(plain, format: .zlib)
        var statistics = DecodeStatistics()
        let outcome = try GzipDecoder.decode(body, as: .deflate, limit: .unlimited, statistics: &statistics)
        #expect(outcome == .decoded(plain))
        #expect(statistics.growths <= 10, "\(statistics.growths) growths")
        #expect(statistics.peakCapacity < 2 * plain.count + (64 << 10))
    }
}

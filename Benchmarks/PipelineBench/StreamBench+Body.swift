import Foundation
import HTTPPipelineGzip

extension StreamBench {
    /// A large gzip body for the loopback server, made in a few milliseconds and held in a few
    /// hundred kilobytes however large it decodes to.
    ///
    /// The plain text is a 16 KiB block of JSON-like text again and again. zlib compresses each
    /// block after a full flush (`Z_FULL_FLUSH`: history forgotten, output byte-aligned), so every
    /// block comes out as the very same bytes, about 5.5 times smaller: the ratio of real API
    /// bodies (a body that repeats across blocks would compress 60 times or more, and libcurl
    /// then inflates tens of megabytes in one burst, which no transport can pause). Three blocks
    /// are compressed and the second and third checked equal; each HTTP chunk carries 64 block
    /// outputs (1 MiB decoded, one shared buffer), the first with the gzip header, and the last
    /// chunk ends the stream with a trailer (CRC-32 and length) computed for the whole. One gzip
    /// member: libcurl inflates only the first member of a body that has several.
    struct GzipDownload {
        /// The wire body in order, a chunk per decoded mebibyte (the first with the gzip header),
        /// then the end of the stream.
        let chunks: [Data]
        /// The decoded size.
        let plainBytes: Int

        /// The compressed size.
        var wireBytes: Int { chunks.reduce(0) { $0 + $1.count } }

        /// What every mebibyte of the body decodes to: 64 copies of ``block``.
        static let group = Data(repeatElement(block, count: blocksPerGroup).joined())
        static let blocksPerGroup = 64

        /// 16 KiB of JSON-like text: records that differ, as an API's would.
        static let block: Data = {
            let cities = ["Lyon", "Osaka", "Porto", "Austin", "Tartu", "Leeds", "Quito", "Perth"]
            var text = #"{"page":1,"items":["#
            var id = 0
            while text.utf8.count < 16_384 {
                let price = (id &* 7_919) % 20_000
                text +=
                    #"{"id":\#(id),"sku":"SKU-\#(1_000 + (id &* 131) % 9_000)","city":"\#(cities[id % cities.count])","#
                    + #""price":\#(price / 100).\#(price % 100),"tags":["new","sale"]},"#
                id += 1
            }
            return Data(text.utf8.prefix(16_384))
        }()

        /// Builds the body of `mebibytes` MiB decoded (at least 1).
        ///
        /// - Throws: When zlib fails, or its output for a group is not the same twice.
        init(mebibytes: Int) throws {
            let groups = max(mebibytes, 1)
            var deflater = try Deflater(format: .gzip, level: 6)
            var first = Data()
            var second = Data()
            var third = Data()
            try deflater.compress(Self.block, flush: .full, into: &first)
            try deflater.compress(Self.block, flush: .full, into: &second)
            try deflater.compress(Self.block, flush: .full, into: &third)
            guard second == third else {
                throw StreamBenchError(description: "zlib's output for a block after a full flush changed")
            }
            var end = Data()
            try deflater.compress(Data(), flush: .finish, into: &end)
            // The trailer zlib wrote covers the three blocks it saw: replace it.
            plainBytes = groups * Self.group.count
            let crc = Self.crc(of: CRC32.checksum(Self.group), length: Self.group.count, repeated: groups)
            var tail = Data(end.dropLast(8))
            for value in [crc, UInt32(truncatingIfNeeded: plainBytes)] {
                withUnsafeBytes(of: value.littleEndian) { tail.append(contentsOf: $0) }
            }
            let steady = Data(repeatElement(second, count: Self.blocksPerGroup).joined())
            let opening = first + Data(repeatElement(second, count: Self.blocksPerGroup - 1).joined())
            chunks = [opening] + Array(repeating: steady, count: groups - 1) + [tail]
        }

        /// The CRC-32 of `count` copies of bytes whose CRC-32 is `crc`, by doubling.
        private static func crc(of crc: UInt32, length: Int, repeated count: Int) -> UInt32 {
            var result: UInt32 = 0  // the CRC-32 of nothing
            var power = crc
            var powerLength = length
            var left = count
            while left > 0 {
                if left & 1 == 1 { result = CRC32.combine(result, power, secondLength: powerLength) }
                left >>= 1
                if left > 0 {
                    power = CRC32.combine(power, power, secondLength: powerLength)
                    powerLength *= 2
                }
            }
            return result
        }
    }
}

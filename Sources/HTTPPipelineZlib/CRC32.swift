import CHTTPPipelineZlib
package import Foundation

/// zlib's CRC-32, for building gzip streams by hand in tests and the benchmark.
package enum CRC32 {
    /// The CRC-32 of `data`, continuing from `crc` (0 for a new checksum).
    ///
    /// - Parameters:
    ///   - data: The bytes to checksum.
    ///   - crc: The checksum of the bytes before them.
    /// - Returns: The checksum of everything.
    package static func checksum(_ data: Data, continuing crc: UInt32 = 0) -> UInt32 {
        data.withUnsafeBytes { raw in
            var running = uLong(crc)
            var offset = 0
            let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            while offset < raw.count {
                let count = min(raw.count - offset, Int(UInt32.max))
                running = crc32(running, base.map { $0 + offset }, UInt32(count))
                offset += count
            }
            return UInt32(truncatingIfNeeded: running)
        }
    }

    /// The CRC-32 of two byte sequences one after the other, from the checksum of each.
    ///
    /// - Parameters:
    ///   - first: The checksum of the first sequence.
    ///   - second: The checksum of the second sequence.
    ///   - secondLength: The length of the second sequence.
    /// - Returns: The checksum of both.
    package static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32_combine(uLong(first), uLong(second), .init(secondLength)))
    }
}

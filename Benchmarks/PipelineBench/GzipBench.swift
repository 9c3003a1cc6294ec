import CHTTPPipelineZlib
import Foundation
import HTTPPipeline
import HTTPPipelineGzip

/// The gzip measurements: our decoder against a plain C-style zlib loop over the same bytes, in
/// the same run, on generated API-like JSON: one large body (≥ 50 MB) and many ~2 KB bodies.
///
/// Throughput is decoded megabytes (10⁶ bytes) per second, the best of a few rounds, ours and the
/// C loop alternating. Peak memory for the large body is measured as the growth of the process's
/// resident set while one decode runs: on Linux the high-water mark is reset first (writing `5`
/// to `/proc/self/clear_refs`) and read back from `VmHWM` in `/proc/self/status`, so it covers
/// exactly that decode; the compressed input is resident before and counts on top. Where that
/// is not available, the decoder's own largest output allocation is reported instead.
enum GzipBench {
    static let largeSize = 52_000_000
    static let smallCount = 1_000
    static let smallRepeats = 20
    static let rounds = 5

    static func measurements() async -> [(key: String, value: Double)] {
        var results: [(key: String, value: Double)] = []
        do {
            results += try large()
            results += try small()
            results += await smallThroughPipeline()
        } catch {
            FileHandle.standardError.write(Data("gzip bench failed: \(error)\n".utf8))
        }
        return results
    }

    // MARK: - The large body

    private static func large() throws -> [(key: String, value: Double)] {
        let compressed: Data
        let decodedCount: Int
        let expectedCRC: UInt32
        do {
            let plain = json(approximateSize: largeSize, seed: 1)
            decodedCount = plain.count
            expectedCRC = CRC32.checksum(plain)
            compressed = try Deflater.compress(plain, format: .gzip, level: 6)
        }
        try check(try GzipDecoder.decode(compressed, as: .gzip), decodedCount, expectedCRC)
        var ours = Double.infinity
        var cLoop = Double.infinity
        var sizes = (ours: 0, cLoop: 0)
        for _ in 0..<rounds {
            ours = min(ours, try time { sizes.ours = try GzipDecoder.decode(compressed, as: .gzip).count })
            cLoop = min(cLoop, try time { sizes.cLoop = try inflateCStyle(compressed) })
        }
        try check(count: sizes.ours, decodedCount)
        try check(count: sizes.cLoop, decodedCount)
        var statistics = DecodeStatistics()
        let oursGrowth = try residentGrowth {
            _ = try GzipDecoder.decode(compressed, as: .gzip, limit: .unlimited, statistics: &statistics)
        }
        let cGrowth = try residentGrowth { _ = try inflateCStyle(compressed) }
        let megabytes = Double(decodedCount) / 1e6
        let compressedMB = Double(compressed.count) / 1e6
        let capacityMB = Double(statistics.peakCapacity) / 1e6
        return [
            ("gzip_large_decoded_mb", megabytes),
            ("gzip_large_compressed_mb", compressedMB),
            ("gzip_large_ours_mb_per_s", megabytes / ours),
            ("gzip_large_c_loop_mb_per_s", megabytes / cLoop),
            ("gzip_large_ratio_to_c", cLoop / ours),
            ("gzip_large_peak_mb", compressedMB + (oursGrowth ?? capacityMB)),
            ("gzip_large_c_loop_peak_mb", compressedMB + (cGrowth ?? megabytes)),
            ("gzip_large_peak_goal_mb", compressedMB + 1.1 * megabytes + 4),
            ("gzip_large_decoder_buffer_mb", capacityMB),
        ]
    }

    // MARK: - Many small bodies

    private static func small() throws -> [(key: String, value: Double)] {
        var bodies: [Data] = []
        var decodedTotal = 0
        for seed in 0..<smallCount {
            let plain = json(approximateSize: 2_000, seed: UInt64(seed + 10))
            decodedTotal += plain.count
            bodies.append(try Deflater.compress(plain, format: .gzip, level: 6))
        }
        var ours = Double.infinity
        var cLoop = Double.infinity
        for _ in 0..<rounds {
            ours = min(
                ours,
                try time {
                    var sum = 0
                    for _ in 0..<smallRepeats {
                        for body in bodies {
                            let limit = GzipOptions.default.outputLimit(forWireSize: body.count)
                            sum &+= try GzipDecoder.decode(body, as: .gzip, limit: limit).count
                        }
                    }
                    try check(count: sum, decodedTotal * smallRepeats)
                })
            cLoop = min(
                cLoop,
                try time {
                    var sum = 0
                    for _ in 0..<smallRepeats {
                        for body in bodies { sum &+= try inflateCStyle(body) }
                    }
                    try check(count: sum, decodedTotal * smallRepeats)
                })
        }
        let megabytes = Double(decodedTotal * smallRepeats) / 1e6
        let decodes = Double(smallCount * smallRepeats)
        return [
            ("gzip_small_body_bytes", Double(decodedTotal) / Double(smallCount)),
            ("gzip_small_ours_mb_per_s", megabytes / ours),
            ("gzip_small_c_loop_mb_per_s", megabytes / cLoop),
            ("gzip_small_ratio_to_c", cLoop / ours),
            ("gzip_small_ours_ns_per_body", ours / decodes * 1e9),
            ("gzip_small_c_loop_ns_per_body", cLoop / decodes * 1e9),
        ]
    }

    /// One ~2 KB gzip body through a whole pipeline (`GzipMiddleware` over an in-memory
    /// transport): what a request pays for decoding, head rewriting included.
    private static func smallThroughPipeline() async -> [(key: String, value: Double)] {
        guard let body = try? Deflater.compress(json(approximateSize: 2_000, seed: 3), format: .gzip) else { return [] }
        let response = HTTPResponse(
            status: 200,
            fields: [.contentEncoding: "gzip", .contentType: "application/json"],
            body: HTTPBody(body)
        )
        let pipeline = Pipeline(transport: InMemoryTransport(response: response)) { GzipMiddleware() }
        let request = HTTPRequest(url: URL(fileURLWithPath: "/bench"))
        let iterations = 20_000
        var best = Double.infinity
        for _ in 0..<rounds {
            let clock = ContinuousClock()
            let start = clock.now
            var sum = 0
            for _ in 0..<iterations {
                guard let response = try? await pipeline.send(request),
                    let decoded = try? await response.body.collect(upTo: 1 << 20)
                else { continue }
                sum &+= decoded.count
            }
            let elapsed = start.duration(to: clock.now)
            if sum > 0 { best = min(best, seconds(elapsed)) }
        }
        return best.isFinite ? [("gzip_small_pipeline_ns_per_exchange", best / Double(iterations) * 1e9)] : []
    }
}

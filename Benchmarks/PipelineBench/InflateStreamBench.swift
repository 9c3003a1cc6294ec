import CHTTPPipelineZlib
import Foundation
import HTTPPipeline
import HTTPPipelineGzip

/// Part of the `gzip` suite: streaming inflate through `GzipMiddleware` against a C-style zlib
/// loop fed the same chunks, in the same run (keys `stream_inflate_*`).
///
/// 64 MiB of the gzip suite's API-like JSON, gzip level 6 (about 6:1), arrives as a streamed body
/// in 16 KiB chunks. Ours: the middleware's decoded body read to its end (chunks counted, not
/// kept). The C loop: `inflateInit2` with gzip framing (zlib checks the header and CRC itself),
/// each chunk inflated into one fixed 256 KiB buffer, the output thrown away. The best of a few
/// rounds of each, alternating; the ratio is the C loop's time over ours (1 means as fast).
enum InflateStreamBench {
    static let decodedSize = 64 << 20
    static let chunkSize = 16 << 10
    static let outputSize = 256 << 10
    static let rounds = 7

    static func measurements() async -> [(String, Double)] {
        do {
            return try await measure().map { ($0.key, $0.value) }
        } catch {
            FileHandle.standardError.write(Data("gzip stream inflate bench failed: \(error)\n".utf8))
            return []
        }
    }

    private static func measure() async throws -> [(key: String, value: Double)] {
        let plain = GzipBench.json(approximateSize: decodedSize, seed: 14)
        let compressed = try Deflater.compress(plain, format: .gzip, level: 6)
        let chunks = stride(from: 0, to: compressed.count, by: chunkSize).map {
            compressed[$0..<min($0 + chunkSize, compressed.count)]
        }
        let options = GzipOptions.default.limiting(decodedSize: plain.count, expansionRatio: 1_000)
        var ours = Double.infinity
        var cLoop = Double.infinity
        for _ in 0..<rounds {
            let clock = ContinuousClock()
            let start = clock.now
            let oursCount = try await decodeStreamed(chunks, options: options)
            ours = min(ours, GzipBench.seconds(start.duration(to: clock.now)))
            let cLoopTime = try GzipBench.time {
                try GzipBench.check(count: try inflateChunksCStyle(chunks), plain.count)
            }
            cLoop = min(cLoop, cLoopTime)
            try GzipBench.check(count: oursCount, plain.count)
        }
        let megabytes = Double(plain.count) / 1e6
        return [
            ("stream_inflate_decoded_mb", megabytes),
            ("stream_inflate_compressed_mb", Double(compressed.count) / 1e6),
            ("stream_inflate_ours_mb_per_s", megabytes / ours),
            ("stream_inflate_c_loop_mb_per_s", megabytes / cLoop),
            ("stream_inflate_ratio_to_c", cLoop / ours),
        ]
    }

    /// The chunks through `GzipMiddleware` as a streamed gzip body; the decoded size.
    @inline(never)
    static func decodeStreamed(_ chunks: [Data], options: GzipOptions) async throws -> Int {
        let response = HTTPResponse(
            status: 200,
            fields: [.contentEncoding: "gzip"],
            body: HTTPBody(stream: ChunkList(chunks: chunks))
        )
        let request = HTTPRequest(url: URL(fileURLWithPath: "/bench"))
        let decoded = try await GzipMiddleware(options).intercept(request) { _ in response }
        var count = 0
        for try await chunk in decoded.body { count &+= chunk.count }
        return count
    }

    /// The C-style loop: one `z_stream` with gzip framing, each chunk inflated into a fixed
    /// 256 KiB buffer until zlib needs the next; the output thrown away. The decoded size.
    @inline(never)
    static func inflateChunksCStyle(_ chunks: [Data]) throws -> Int {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: outputSize)
        defer {
            inflateEnd(stream)
            stream.deallocate()
            output.deallocate()
        }
        guard CHTTPPipelineZlib_inflateInit2(stream, 16 + 15) == Z_OK else {
            throw GzipBenchError(description: "inflateInit2 failed")
        }
        var code = Z_OK
        for chunk in chunks where code != Z_STREAM_END {
            code = chunk.withUnsafeBytes { input -> Int32 in
                stream.pointee.next_in = UnsafeMutablePointer(
                    mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
                stream.pointee.avail_in = UInt32(input.count)
                var code = Z_OK
                repeat {
                    stream.pointee.next_out = output
                    stream.pointee.avail_out = UInt32(outputSize)
                    code = CHTTPPipelineZlib.inflate(stream, Z_NO_FLUSH)
                } while code == Z_OK && stream.pointee.avail_out == 0
                return code
            }
            guard code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR else {
                throw GzipBenchError(description: "inflate returned \(code)")
            }
        }
        guard code == Z_STREAM_END else { throw GzipBenchError(description: "the stream did not end") }
        return Int(stream.pointee.total_out)
    }

    /// A list of chunks streamed one by one.
    struct ChunkList: AsyncSequence, Sendable {
        typealias Element = Data
        let chunks: [Data]

        func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks) }

        struct Iterator: AsyncIteratorProtocol {
            let chunks: [Data]
            var index = 0

            mutating func next() async throws -> Data? {
                guard index < chunks.count else { return nil }
                defer { index += 1 }
                return chunks[index]
            }
        }
    }
}

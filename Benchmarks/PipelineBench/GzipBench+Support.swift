import CHTTPPipelineZlib
import Foundation
import HTTPPipelineGzip

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the gzip benchmark found wrong with its own run.
struct GzipBenchError: Error, CustomStringConvertible {
    let description: String
}

extension GzipBench {
    /// About `approximateSize` bytes of API-like JSON (a page of orders with nested customers and
    /// items), the same for the same seed; compresses about 6:1 at level 6, like real API bodies.
    static func json(approximateSize: Int, seed: UInt64) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let cities = ["Lyon", "Osaka", "Porto", "Austin", "Tartu", "Leeds", "Quito", "Perth"]
        let statuses = ["pending", "paid", "shipped", "delivered", "refunded"]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(approximateSize + 512)
        bytes += Array(#"{"page":1,"orders":["#.utf8)
        var id = 0
        while bytes.count < approximateSize {
            if id > 0 { bytes.append(UInt8(ascii: ",")) }
            let customer = next() % 50_000
            let city = cities[Int(next() % UInt64(cities.count))]
            let status = statuses[Int(next() % UInt64(statuses.count))]
            var order = #"{"id":\#(id),"status":"\#(status)","customer":{"id":\#(customer),"#
            order += #""email":"user\#(customer)@example.com","city":"\#(city)"},"items":["#
            for item in 0..<Int(1 + next() % 3) {
                let cents = next() % 20_000
                if item > 0 { order += "," }
                order +=
                    #"{"sku":"SKU-\#(next() % 9_000 + 1_000)","qty":\#(1 + next() % 4),"price":\#(cents / 100).\#(cents % 100)}"#
            }
            order += #"],"createdAt":"2024-0\#(1 + next() % 9)-1\#(next() % 9)T1\#(next() % 9):0\#(next() % 9):00Z"}"#
            bytes += Array(order.utf8)
            id += 1
        }
        bytes += Array("]}".utf8)
        return Data(bytes)
    }

    /// The plain C-style loop: the size from the gzip trailer, one `malloc`, `inflateInit2` with
    /// gzip framing (zlib checks the header and CRC itself), `inflate` until the stream ends,
    /// `inflateEnd`, `free`. Returns the decoded size.
    static func inflateCStyle(_ compressed: Data) throws -> Int {
        try compressed.withUnsafeBytes { input -> Int in
            guard let base = input.baseAddress, input.count >= 18 else {
                throw GzipBenchError(description: "short input")
            }
            let tail = input.count - 4
            let size =
                Int(input[tail]) | Int(input[tail + 1]) << 8 | Int(input[tail + 2]) << 16 | Int(input[tail + 3]) << 24
            guard let output = malloc(max(size, 1))?.assumingMemoryBound(to: UInt8.self) else {
                throw GzipBenchError(description: "malloc failed")
            }
            defer { free(output) }
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            defer {
                inflateEnd(stream)
                stream.deallocate()
            }
            guard CHTTPPipelineZlib_inflateInit2(stream, 16 + 15) == Z_OK else {
                throw GzipBenchError(description: "inflateInit2 failed")
            }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
            stream.pointee.avail_in = UInt32(input.count)
            stream.pointee.next_out = output
            stream.pointee.avail_out = UInt32(size)
            var code = Z_OK
            while code == Z_OK {
                code = inflate(stream, Z_NO_FLUSH)
            }
            guard code == Z_STREAM_END else { throw GzipBenchError(description: "inflate returned \(code)") }
            return Int(stream.pointee.total_out)
        }
    }

    /// Seconds `body` took.
    static func time(_ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return seconds(start.duration(to: clock.now))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    static func check(_ decoded: Data, _ count: Int, _ crc: UInt32) throws {
        try check(count: decoded.count, count)
        guard CRC32.checksum(decoded) == crc else { throw GzipBenchError(description: "decoded bytes differ") }
    }

    static func check(count: Int, _ expected: Int) throws {
        guard count == expected else {
            throw GzipBenchError(description: "decoded \(count) bytes, expected \(expected)")
        }
    }

    /// How many megabytes the resident set grew above where it was while `body` ran, or `nil`
    /// where the peak cannot be reset and read (anything but Linux).
    static func residentGrowth(_ body: () throws -> Void) throws -> Double? {
        guard ResidentMemory.resetPeak(), let before = ResidentMemory.kilobytes("VmRSS:") else {
            try body()
            return nil
        }
        try body()
        guard let peak = ResidentMemory.kilobytes("VmHWM:") else { return nil }
        return Double(max(0, peak - before)) * 1_024 / 1e6
    }
}

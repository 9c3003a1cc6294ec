import Foundation
import HTTPPipelineGzip

#if canImport(Glibc)
import Glibc
#endif

/// A large gzip body for the loopback server, made in milliseconds and held in kilobytes however
/// large it decodes to (`Deflater` and `CRC32` are the gzip plugin's package-level helpers).
///
/// It decodes to a 16 KiB page of JSON-like text again and again. zlib compresses each page after
/// a full flush (history forgotten, output byte-aligned), so every page comes out as the same
/// bytes, about 5 times smaller, as real API bodies compress: the body is a chunk per decoded
/// mebibyte (64 page outputs, one shared buffer; the first chunk with the gzip header), then the
/// end of the stream with a trailer (CRC-32 and length) computed for the whole. One gzip member:
/// libcurl, under URLSession on Linux, inflates only the first member of a body that has several.
struct DemoGzipBody {
    /// The body on the wire, in order; send it with `.chunked(chunks)`.
    let chunks: [Data]
    /// The decoded size.
    let decodedBytes: Int

    /// The compressed size.
    var wireBytes: Int { chunks.reduce(0) { $0 + $1.count } }

    /// 16 KiB of JSON-like records.
    static let page: Data = {
        var text = #"{"page":1,"loans":["#
        var id = 0
        while text.utf8.count < 16_384 {
            text += #"{"id":\#(id),"book":\#(1_000 + (id &* 37) % 9_000),"due":"2026-12-\#(10 + id % 18)"},"#
            id += 1
        }
        return Data(text.utf8.prefix(16_384))
    }()

    /// What each mebibyte decodes to: 64 pages.
    static let group = Data(repeatElement(page, count: 64).joined())

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Builds a body of `mebibytes` MiB decoded (at least 1).
    init(mebibytes: Int) throws {
        let groups = max(mebibytes, 1)
        var deflater = try Deflater(format: .gzip)
        var first = Data()
        var second = Data()
        var third = Data()
        try deflater.compress(Self.page, flush: .full, into: &first)
        try deflater.compress(Self.page, flush: .full, into: &second)
        try deflater.compress(Self.page, flush: .full, into: &third)
        guard second == third else { throw Failure(description: "zlib's output for a page changed") }
        var end = Data()
        try deflater.compress(Data(), flush: .finish, into: &end)
        decodedBytes = groups * Self.group.count
        // The CRC-32 of `groups` copies of the group, by doubling.
        var crc: UInt32 = 0
        var power = CRC32.checksum(Self.group)
        var powerLength = Self.group.count
        var left = groups
        while left > 0 {
            if left & 1 == 1 { crc = CRC32.combine(crc, power, secondLength: powerLength) }
            left >>= 1
            if left > 0 {
                power = CRC32.combine(power, power, secondLength: powerLength)
                powerLength *= 2
            }
        }
        // zlib's trailer covers the three pages it saw: replace it.
        var tail = Data(end.dropLast(8))
        for value in [crc, UInt32(truncatingIfNeeded: decodedBytes)] {
            withUnsafeBytes(of: value.littleEndian) { tail.append(contentsOf: $0) }
        }
        let steady = Data(repeatElement(second, count: 64).joined())
        let opening = first + Data(repeatElement(second, count: 63).joined())
        chunks = [opening] + Array(repeating: steady, count: groups - 1) + [tail]
    }
}

/// How far the process's resident memory rises while some work runs (Linux only).
enum DemoResidentMemory {
    /// Megabytes the resident set rose above where it was while `body` ran, or `nil` where it
    /// cannot be read: unused heap handed back first (`malloc_trim`), the peak reset
    /// (`/proc/self/clear_refs`), then the peak (`VmHWM`) less `VmRSS` before.
    static func growth<T>(while body: () async throws -> T) async rethrows -> (T, Double?) {
        trimHeap()
        guard resetPeak(), let before = kilobytes("VmRSS:") else { return (try await body(), nil) }
        let result = try await body()
        guard let peak = kilobytes("VmHWM:") else { return (result, nil) }
        return (result, Double(max(0, peak - before)) * 1_024 / 1e6)
    }

    private static func trimHeap() {
        #if canImport(Glibc)
        // Looked up at run time: the Glibc module does not export `malloc.h`.
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    private static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    private static func kilobytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix(field) }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}

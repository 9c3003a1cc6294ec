import Foundation
import HTTPPipeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An entry file: `HPCACHE2`, the header's length (4 bytes, big-endian), the header (JSON), the
/// body, and the SHA-256 of everything before it. The body's length is what the file's size
/// leaves for it, so a body is written as it arrives, its length unknown until its end.
extension DiskCacheStore {
    struct Header: Codable {
        var key: String
        var status: Int
        var fields: [[String]]
        var requestTime: Double
        var responseTime: Double
        var varying: [String: String]
        var decodedByTransport: Bool
    }

    struct DecodingProblem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The magic, the header's length and the header: what precedes the body.
    static func prefix(for entry: CacheEntry) -> Data {
        let header = Header(
            key: entry.key, status: entry.status, fields: entry.fields.map { [$0.name.rawName, $0.value] },
            requestTime: entry.requestTime.timeIntervalSince1970,
            responseTime: entry.responseTime.timeIntervalSince1970,
            varying: entry.varying, decodedByTransport: entry.decodedByTransport)
        let json = (try? JSONEncoder().encode(header)) ?? Data()
        var bytes = Data(magic)
        let length = UInt32(json.count)
        bytes.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: length >> UInt32(24 - $0 * 8)) })
        bytes.append(json)
        return bytes
    }

    /// The length of the header a file's first bytes announce.
    static func headerLength(_ start: Data) throws(DecodingProblem) -> Int {
        guard start.count == magic.count + 4 else { throw DecodingProblem("too short to be an entry") }
        guard Array(start.prefix(magic.count)) == magic else { throw DecodingProblem("not this store's format") }
        return start.suffix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    /// The entry a header describes, with `body`.
    static func entry(header json: Data, body: HTTPBody) throws(DecodingProblem) -> CacheEntry {
        guard let header = try? JSONDecoder().decode(Header.self, from: json) else {
            throw DecodingProblem("its header is not readable")
        }
        var fields = HTTPFields()
        for pair in header.fields {
            // A file another writer made with a matching digest is still checked field by field.
            guard pair.count == 2, let name = HTTPField.Name(pair[0]),
                !pair[1].unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            else { throw DecodingProblem("it holds a field no response may carry") }
            fields.append(HTTPField(name: name, value: pair[1]))
        }
        return CacheEntry(
            key: header.key, status: header.status, fields: fields, body: body,
            requestTime: Date(timeIntervalSince1970: header.requestTime),
            responseTime: Date(timeIntervalSince1970: header.responseTime), varying: header.varying,
            decodedByTransport: header.decodedByTransport)
    }

    // MARK: - File descriptors

    /// Writes all of `bytes` to `descriptor`.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
    }

    /// Up to `count` bytes of `descriptor` from `offset`; fewer only at the file's end.
    static func read(_ descriptor: Int32, at offset: Int, count: Int) throws -> Data {
        var data = Data(count: count)
        var filled = 0
        try data.withUnsafeMutableBytes { raw in
            while filled < count {
                let got = pread(descriptor, raw.baseAddress.map { $0 + filled }, count - filled, off_t(offset + filled))
                if got < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                if got == 0 { break }
                filled += got
            }
        }
        return filled == count ? data : data.prefix(filled)
    }

    /// The inode of `descriptor`, or of the file at `path`; `nil` when there is none.
    static func inode(descriptor: Int32? = nil, path: String? = nil) -> UInt64? {
        var status = stat()
        if let descriptor {
            guard fstat(descriptor, &status) == 0 else { return nil }
        } else if let path {
            guard stat(path, &status) == 0 else { return nil }
        }
        return UInt64(status.st_ino)
    }
}

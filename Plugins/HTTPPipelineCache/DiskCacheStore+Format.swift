import Foundation
import HTTPPipeline

/// An entry file: `HPCACHE1`, the header's length (4 bytes, big-endian), the header (JSON),
/// the body, and the SHA-256 of everything before it.
extension DiskCacheStore {
    struct Header: Codable {
        var key: String
        var status: Int
        var fields: [[String]]
        var requestTime: Double
        var responseTime: Double
        var varying: [String: String]
        var decodedByTransport: Bool
        var bodyLength: Int
    }

    struct DecodingProblem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    static func encode(_ entry: CacheEntry) -> Data {
        let header = Header(
            key: entry.key, status: entry.status, fields: entry.fields.map { [$0.name.rawName, $0.value] },
            requestTime: entry.requestTime.timeIntervalSince1970,
            responseTime: entry.responseTime.timeIntervalSince1970,
            varying: entry.varying, decodedByTransport: entry.decodedByTransport, bodyLength: entry.body.count)
        let json = (try? JSONEncoder().encode(header)) ?? Data()
        var bytes = Data(magic)
        let length = UInt32(json.count)
        bytes.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: length >> UInt32(24 - $0 * 8)) })
        bytes.append(json)
        bytes.append(entry.body)
        bytes.append(contentsOf: SHA256.digest(bytes))
        return bytes
    }

    static func decode(_ data: Data) throws(DecodingProblem) -> CacheEntry {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 4 + 32 else { throw DecodingProblem("too short to be an entry") }
        guard Array(bytes[0..<magic.count]) == magic else { throw DecodingProblem("not this store's format") }
        let content = bytes[..<(bytes.count - 32)]
        guard SHA256.digest(content) == Array(bytes[(bytes.count - 32)...]) else {
            throw DecodingProblem("its digest does not match: written in part, or altered")
        }
        let lengthStart = magic.count
        let length = bytes[lengthStart..<(lengthStart + 4)].reduce(0) { $0 << 8 | Int($1) }
        let headerStart = lengthStart + 4
        guard length <= content.count - headerStart else { throw DecodingProblem("its header runs past its end") }
        guard
            let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[headerStart..<(headerStart + length)]))
        else { throw DecodingProblem("its header is not readable") }
        let body = Data(bytes[(headerStart + length)..<content.count])
        guard body.count == header.bodyLength, header.fields.allSatisfy({ $0.count == 2 }) else {
            throw DecodingProblem("its body is not the length its header says")
        }
        var fields = HTTPFields()
        for pair in header.fields {
            // A file another writer made with a matching digest is still checked field by field.
            guard let name = HTTPField.Name(pair[0]),
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
}

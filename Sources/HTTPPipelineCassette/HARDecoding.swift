import Foundation

/// Reading a HAR file, with errors that name the entry.
enum HARDecoding {
    /// Decodes a file.
    static func decode(_ data: Data) throws(CassetteError) -> HAR.File {
        do {
            return try JSONDecoder().decode(HAR.File.self, from: data)
        } catch let error as DecodingError {
            throw describe(error, data: data)
        } catch {
            throw .malformed(entry: nil, reason: "\(error)")
        }
    }

    /// The bytes of a body: base64-decoded when `encoding` says so.
    static func bytes(_ text: String?, encoding: String?, entry: Int) throws(CassetteError) -> Data {
        guard let text else { return Data() }
        guard encoding == "base64" else { return Data(text.utf8) }
        guard let data = Data(base64Encoded: text) else { throw .badBase64(entry: entry) }
        return data
    }

    /// A decoding error as a cassette error naming the entry.
    static func describe(_ error: DecodingError, data: Data) -> CassetteError {
        switch error {
        case .keyNotFound(let key, let context):
            return .malformed(
                entry: entryIndex(context.codingPath),
                reason: "missing \(path(context.codingPath + [key]))"
            )
        case .valueNotFound(_, let context), .typeMismatch(_, let context):
            return .malformed(
                entry: entryIndex(context.codingPath),
                reason: "wrong or null value at \(path(context.codingPath))"
            )
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .malformed(entry: EntryScanner.firstBrokenEntry(in: data), reason: "not whole JSON")
            }
            return .malformed(entry: entryIndex(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .malformed(entry: nil, reason: "\(error)")
        }
    }

    /// The index after `entries` in a coding path.
    static func entryIndex(_ codingPath: [any CodingKey]) -> Int? {
        guard let position = codingPath.firstIndex(where: { $0.stringValue == "entries" }),
            position + 1 < codingPath.count
        else { return nil }
        return codingPath[position + 1].intValue
    }

    /// A coding path as `log.entries[2].response.status`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { text, key in
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }
}

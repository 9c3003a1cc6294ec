import Foundation

/// Finds which entry of a HAR file that is not valid JSON is broken: splits the `entries` array
/// into its elements by their brackets (strings and escapes skipped) and parses each alone.
enum EntryScanner {
    /// The index of the first entry that is cut short or does not parse, or `nil` when the
    /// entries are whole (the fault is elsewhere) or there is no `entries` array.
    static func firstBrokenEntry(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        guard let start = arrayStart(in: bytes) else { return nil }
        var index = 0
        var elementStart: Int?
        var depth = 0
        var inString = false
        var escaped = false
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            defer { position += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                if depth == 0, elementStart == nil { elementStart = position }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0, elementStart == nil { elementStart = position }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 {
                    // The array closed: judge the last element, then the entries are done.
                    if let from = elementStart, !parses(bytes[from..<position]) { return index }
                    return nil
                }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0 {
                    guard let from = elementStart, parses(bytes[from..<position]) else { return index }
                    index += 1
                    elementStart = nil
                }
            default:
                if depth == 0, elementStart == nil, byte > 0x20 { elementStart = position }
            }
        }
        // The file ended inside the array: the entry being read is cut short.
        return index
    }

    /// The position just after the `[` of `"entries": [`.
    static func arrayStart(in bytes: [UInt8]) -> Int? {
        let key = Array("\"entries\"".utf8)
        guard let found = Placeholders.firstIndex(of: key, in: bytes, from: 0) else { return nil }
        var position = found + key.count
        while position < bytes.count, bytes[position] <= 0x20 || bytes[position] == UInt8(ascii: ":") {
            position += 1
        }
        guard position < bytes.count, bytes[position] == UInt8(ascii: "[") else { return nil }
        return position + 1
    }

    /// Whether one element is whole JSON.
    static func parses(_ bytes: ArraySlice<UInt8>) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }
}

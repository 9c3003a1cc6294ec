import Foundation

/// A URL as text, split for matching: origin (`scheme://authority`), path and query items.
/// Read from the text as written, marks and placeholders included, so it never fails.
struct URLParts: Equatable, Sendable {
    var origin: Substring
    var path: Substring
    /// The query items, names and values percent-decoded where they decode.
    var queryItems: [(name: String, value: String)]

    init(_ text: String) {
        // Split on the ASCII delimiters through the UTF-8 view: no Character breaking.
        let utf8 = text.utf8
        var end = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        var query: Substring = ""
        if let question = utf8[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = text[utf8.index(after: question)..<end]
            end = question
        }
        let rest = text[..<end]
        if let colon = Self.schemeEnd(rest) {
            let authorityEnd = rest.utf8[colon...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            origin = rest[..<authorityEnd]
            path = rest[authorityEnd...]
        } else {
            origin = ""
            path = rest
        }
        if path.isEmpty { path = "/" }
        queryItems = query.utf8.split(separator: UInt8(ascii: "&")).map { item in
            let item = Substring(item)
            guard let equals = item.utf8.firstIndex(of: UInt8(ascii: "=")) else { return (Self.decoded(item), "") }
            return (Self.decoded(item[..<equals]), Self.decoded(item[item.utf8.index(after: equals)...]))
        }
    }

    /// The position after `://`, if the text has one.
    static func schemeEnd(_ text: Substring) -> Substring.Index? {
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let after = utf8[utf8.index(after: colon)...]
        guard after.starts(with: "//".utf8) else { return nil }
        return utf8.index(colon, offsetBy: 3)
    }

    static func decoded(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(text)
        }
        let plus = text.replacingOccurrences(of: "+", with: " ")
        return plus.removingPercentEncoding ?? plus
    }

    static func == (lhs: URLParts, rhs: URLParts) -> Bool {
        lhs.origin == rhs.origin && lhs.path == rhs.path
            && lhs.queryItems.elementsEqual(rhs.queryItems) { $0.name == $1.name && $0.value == $1.value }
    }
}

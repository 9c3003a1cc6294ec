import Foundation

/// A URL as text, split for matching: origin (`scheme://authority`), path and query items.
/// Read from the text as written, marks and placeholders included, so it never fails.
struct URLParts: Equatable, Sendable {
    var origin: Substring
    var path: Substring
    /// The query items, names and values percent-decoded where they decode.
    var queryItems: [(name: String, value: String)]

    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        if let scheme = rest.range(of: "://") {
            let authorityEnd = rest[scheme.upperBound...].firstIndex(of: "/") ?? rest.endIndex
            origin = rest[..<authorityEnd]
            path = rest[authorityEnd...]
        } else {
            origin = ""
            path = rest
        }
        if path.isEmpty { path = "/" }
        queryItems = query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = pair.count > 1 ? pair[1] : ""
            return (Self.decoded(pair[0]), Self.decoded(value))
        }
    }

    static func decoded(_ text: Substring) -> String {
        let plus = text.replacingOccurrences(of: "+", with: " ")
        return plus.removingPercentEncoding ?? plus
    }

    static func == (lhs: URLParts, rhs: URLParts) -> Bool {
        lhs.origin == rhs.origin && lhs.path == rhs.path
            && lhs.queryItems.elementsEqual(rhs.queryItems) { $0.name == $1.name && $0.value == $1.value }
    }
}

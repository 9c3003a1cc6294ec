public import Foundation

extension LoopbackServer {
    /// A complete request as the server received it.
    ///
    /// Header names keep the case the client sent; look them up with ``header(_:)`` and
    /// ``headerValues(_:)``, which ignore case. A chunked body is recorded decoded.
    public struct RecordedRequest: Sendable {
        /// The request method, e.g. `"GET"`.
        public let method: String
        /// The request target as on the request line, e.g. `"/books?id=1"`.
        public let target: String
        /// The target without the query, e.g. `"/books"`; not percent-decoded.
        public let path: String
        /// The query after the first `?` of the target, without the `?`; `nil` when there is no `?`.
        public let query: String?
        /// The header fields in the order they arrived, duplicates included.
        public let headers: [(name: String, value: String)]
        /// The body bytes, after chunked decoding; empty when the request had no body.
        public let body: Data
        /// When the server had read the whole request, on the monotonic clock: compare the
        /// arrival of requests (for example, to count round trips) without wall-clock asserts.
        public let receivedAt: ContinuousClock.Instant

        /// The value of the first header field with a name, ignoring case.
        ///
        /// - Parameter name: The field name, e.g. `"content-type"`.
        /// - Returns: The first matching field's value, or `nil` if there is none.
        public func header(_ name: String) -> String? {
            let name = name.lowercased()
            return headers.first { $0.name.lowercased() == name }?.value
        }

        /// The values of every header field with a name, ignoring case, in arrival order.
        ///
        /// - Parameter name: The field name, e.g. `"accept"`.
        /// - Returns: Each matching field's value; empty if there is none.
        public func headerValues(_ name: String) -> [String] {
            let name = name.lowercased()
            return headers.filter { $0.name.lowercased() == name }.map(\.value)
        }
    }
}

extension LoopbackServer.RecordedRequest {
    /// Makes a recorded request from a parsed request line, fields and body.
    init(method: String, target: String, headers: [(name: String, value: String)], body: Data) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.receivedAt = ContinuousClock.now
        let pathPart: Substring
        if let questionMark = target.firstIndex(of: "?") {
            pathPart = target[..<questionMark]
            query = String(target[target.index(after: questionMark)...])
        } else {
            pathPart = target[...]
            query = nil
        }
        path = Self.originPath(of: pathPart)
    }

    /// The path of a target: itself in origin form (`/a/b`), the part after the authority in
    /// absolute form (`http://host/a/b`, `/` when empty), and `*` as it is.
    private static func originPath(of target: Substring) -> String {
        guard !target.hasPrefix("/"), let scheme = target.range(of: "://") else {
            return String(target)
        }
        let authorityAndPath = target[scheme.upperBound...]
        guard let slash = authorityAndPath.firstIndex(of: "/") else { return "/" }
        return String(authorityAndPath[slash...])
    }
}

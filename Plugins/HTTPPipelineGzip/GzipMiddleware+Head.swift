import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension GzipMiddleware {
    /// The head of a plain response: the fields of `response` but `Content-Encoding`, with a
    /// `Content-Length` of `size` and, when given, another `Content-Type`.
    ///
    /// Built in one pass over the fields, names compared without allocating, and one
    /// `HTTPURLResponse` initialisation, which is most of the cost (on Linux it canonicalises
    /// every name and parses `Content-Type` again).
    ///
    /// The HTTP version cannot be carried over: neither Foundation has a public accessor for it,
    /// and FoundationNetworking does not keep it at all (`HTTPURLResponse` stores no version,
    /// whatever its initialiser is given). The new head says `HTTP/1.1`.
    static func plainHead(
        _ response: HTTPURLResponse,
        size: Int,
        contentType: String? = nil,
        for request: URLRequest
    ) -> HTTPURLResponse {
        let fields = response.allHeaderFields
        var headers = [String: String](minimumCapacity: fields.count + 1)
        for (key, value) in fields {
            guard let name = key.base as? String else { continue }
            if isField(name, "content-encoding") || isField(name, "content-length") { continue }
            if contentType != nil, isField(name, "content-type") { continue }
            headers[name] = value as? String ?? String(describing: value)
        }
        headers["Content-Length"] = String(size)
        if let contentType { headers["Content-Type"] = contentType }
        let url = response.url ?? request.url ?? URL(fileURLWithPath: "/")
        // Foundation refuses a head only for an invalid status, and this one came from a
        // response; keeping the original is the safe fallback.
        return HTTPURLResponse(
            url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
            ?? response
    }

    /// Whether the field name `name` is `lowercase`, ASCII letters compared in any case.
    static func isField(_ name: String, _ lowercase: StaticString) -> Bool {
        guard name.utf8.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { expected in
            zip(name.utf8, expected).allSatisfy { byte, wanted in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == wanted : byte == wanted
            }
        }
    }
}

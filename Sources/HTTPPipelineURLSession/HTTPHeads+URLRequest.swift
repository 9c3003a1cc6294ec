public import HTTPPipeline

#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

extension HTTPRequestHead {
    /// The head of a Foundation request: its method (`GET` when unset), URL and header fields.
    ///
    /// - Parameter request: The request.
    /// - Throws: `HTTPTransportError.invalidRequest(reason:)` when the request has no URL.
    public init(_ request: URLRequest) throws(HTTPTransportError) {
        guard let url = request.url else { throw .invalidRequest(reason: "the request has no URL") }
        let headers = request.allHTTPHeaderFields ?? [:]
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            fields.append(HTTPField(name: name, value: value))
        }
        self.init(method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), url: url, fields: fields)
    }
}

extension URLRequest {
    /// A Foundation request with the head's method, URL and fields, built with one
    /// `allHTTPHeaderFields` assignment (per-field `setValue` costs about eight times as much on
    /// Linux). Fields of the same name, in any case, are joined with `,` in order, as
    /// `addValue` would.
    ///
    /// - Parameter head: The head.
    /// - Throws: `HTTPTransportError.invalidRequest(reason:)` for a method or a field name that
    ///   is not an HTTP token, or a value holding a control character other than tab (CR, LF or
    ///   NUL would be a header injection); the reason names the field, never its value.
    public init(_ head: HTTPRequestHead) throws(HTTPTransportError) {
        try head.method.checkSendable()
        let fields = head.fields.storage
        var headers = [String: String](minimumCapacity: fields.count)
        for index in fields.indices {
            let field = fields[index]
            try field.checkSendable()
            // A repeated name joins the first one's spelling. Requests carry a handful of
            // fields: scanning those before is cheaper than lowercasing every name into a table.
            let first = fields[..<index].first { HTTPFields.sameName($0.name.rawName, field.name.rawName) }
            if let name = first?.name.rawName, let joined = headers[name] {
                headers[name] = joined + "," + field.value
            } else {
                headers[field.name.rawName] = field.value
            }
        }
        self.init(url: head.url)
        // A new `URLRequest` is already a GET; setting the method normalises it against a list
        // of names with case-insensitive string comparisons (about 4,000 instructions on Linux).
        if head.method != .get { httpMethod = head.method.rawValue }
        if !headers.isEmpty { allHTTPHeaderFields = headers }
    }
}

extension HTTPResponseHead {
    /// The head of a Foundation response: its status and header fields.
    ///
    /// Foundation joins repeated fields into one value with `, `; `Set-Cookie`, whose values
    /// cannot be joined that way (a cookie's `Expires` holds a comma), is split again where a
    /// new `name=value` begins.
    ///
    /// - Parameter response: The response.
    public init(_ response: HTTPURLResponse) {
        var fields = HTTPFields()
        for (key, value) in response.allHeaderFields {
            guard let name = key as? String else { continue }
            let text = value as? String ?? String(describing: value)
            if name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
                for line in SetCookieLines.split(text) { fields.append(HTTPField(name: name, value: line)) }
            } else {
                fields.append(HTTPField(name: name, value: text))
            }
        }
        fields.storage.sort { $0.name.canonicalName < $1.name.canonicalName }
        self.init(status: HTTPResponse.Status(code: response.statusCode), fields: fields)
    }
}

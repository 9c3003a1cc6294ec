public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension URLRequest {
    /// What a URLSession transport does once, at the bottom of a light-head pipeline.
    @inlinable
    public init(_ head: HTTPRequestHead) {
        self.init(url: head.url)
        httpMethod = head.method.rawValue
        for field in head.fields {
            addValue(field.value, forHTTPHeaderField: field.name)
        }
    }
}

extension URLRequest {
    /// The same conversion through one `allHTTPHeaderFields` assignment: swift-corelibs-foundation's
    /// setter stores the dictionary as is, where `addValue`/`setValue` validate the value per
    /// Character, capitalise the name and compare it, lowercased, with every existing name.
    /// Values are checked here (no CR, LF, NUL) so nothing Foundation would refuse gets through;
    /// repeated names are joined with "," as `addValue` does.
    @inlinable
    public init(dictionaryFrom head: HTTPRequestHead) {
        self.init(url: head.url)
        if head.method.rawValue != "GET" { httpMethod = head.method.rawValue }
        var headers = [String: String](minimumCapacity: head.fields.count)
        for field in head.fields where field.value.isValidFieldValue {
            if let old = headers[field.name] {
                headers[field.name] = old + "," + field.value
            } else {
                headers[field.name] = field.value
            }
        }
        allHTTPHeaderFields = headers
    }
}

extension HTTPResponseHead {
    /// What a URLSession transport does once with the HTTPURLResponse it gets back.
    @inlinable
    public init(_ response: HTTPURLResponse) {
        let all = response.allHeaderFields
        var fields = [HTTPField]()
        fields.reserveCapacity(all.count)
        for (key, value) in all {
            guard let name = key.base as? String, let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        self.init(status: response.statusCode, fields: HTTPFields(fields))
    }
}

/// The gzip-style head rebuild: the fields of `response` but `removing`, one HTTPURLResponse init
/// (same shape as GzipMiddleware.plainHead in the package, without the Content-Length rewrite).
@inlinable
public func rebuild(_ response: HTTPURLResponse, removing: String, fallbackURL: URL?) -> HTTPURLResponse {
    let fields = response.allHeaderFields
    var headers = [String: String](minimumCapacity: fields.count)
    for (key, value) in fields {
        guard let name = key.base as? String else { continue }
        if name.equalsIgnoringASCIICase(removing) { continue }
        headers[name] = value as? String ?? String(describing: value)
    }
    let url = response.url ?? fallbackURL ?? URL(fileURLWithPath: "/")
    return HTTPURLResponse(url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        ?? response
}

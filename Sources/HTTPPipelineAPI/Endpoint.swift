public import Foundation
public import HTTPPipeline

/// One operation of an HTTP API, typed by the value its response decodes to.
///
/// An endpoint is a plain value: method, path, query items, headers and an optional body. It knows
/// nothing about hosts, transports or middleware; an ``APIClient`` turns it into an `HTTPRequest`
/// against its base URL, sends it and decodes the reply into `Response`.
///
/// ```swift
/// extension Endpoint where Response == Book {
///     static func book(id: String) -> Self { .get("/books/\(id)") }
/// }
/// let order: Endpoint<Receipt> = .post("/orders", body: newOrder)
/// let search: Endpoint<[Book]> = .get("/books", query: [URLQueryItem(name: "q", value: "a+b")])
/// ```
///
/// Use ``EmptyResponse`` as `Response` for replies without a value.
public struct Endpoint<Response: Decodable & Sendable>: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path, relative to the client's base URL.
    public var path: EndpointPath
    /// The query items, in order; names and values are percent-encoded when the request is built.
    public var query: [URLQueryItem]
    /// Header fields set on the request; a `Content-Type` here wins over the body's.
    public var headers: [String: String]
    /// The request body, if any.
    public var body: RequestBody?

    /// Creates an endpoint.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - path: The path, relative to the client's base URL.
    ///   - query: The query items, in order.
    ///   - headers: Header fields to set on the request.
    ///   - body: The request body, if any.
    public init(
        method: HTTPMethod,
        path: EndpointPath,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: RequestBody? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A copy with one more query item.
    ///
    /// - Parameters:
    ///   - name: The item's name.
    ///   - value: The item's value; `nil` sends the name alone.
    /// - Returns: The endpoint with the item appended.
    public func query(_ name: String, _ value: String?) -> Endpoint {
        var copy = self
        copy.query.append(URLQueryItem(name: name, value: value))
        return copy
    }

    /// A copy with one header field set.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value; replaces an earlier value of the same field.
    /// - Returns: The endpoint with the header set.
    public func header(_ name: String, _ value: String) -> Endpoint {
        var copy = self
        copy.headers[name] = value
        return copy
    }

    /// Builds the request this endpoint describes against a base URL.
    ///
    /// The base URL's path is a prefix: `https://api.example.com/v2` and
    /// `https://api.example.com/v2/` both give `https://api.example.com/v2/books` for `"/books"`
    /// and for `"books"`. Path segments and query names and values are percent-encoded so that
    /// each stays exactly one segment or one value (`+` is sent as `%2B`). A query on the base URL
    /// is kept and the endpoint's items follow it; a fragment is dropped.
    ///
    /// - Parameters:
    ///   - baseURL: An absolute `http` or `https` URL, optionally with a path prefix.
    ///   - encoder: The encoder for a JSON body that does not bring its own.
    /// - Returns: The request, with method, URL, headers and body set.
    /// - Throws: ``APIError/invalidRequest(reason:)`` when the base URL is not an absolute HTTP
    ///   URL, the path is rejected (see ``EndpointPath``), or the body cannot be encoded.
    public func request(baseURL: URL, encoder: JSONEncoder = JSONEncoder()) throws(APIError) -> HTTPRequest {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else {
            throw .invalidRequest(reason: "the base URL is not an absolute http or https URL")
        }
        let segments = try path.encodedSegments()
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") {
            prefix.removeLast()
        }
        components.percentEncodedPath = prefix + "/" + segments.joined(separator: "/")

        let items = query.map { item in
            let name = PercentEncoding.encode(item.name)
            return item.value.map { "\(name)=\(PercentEncoding.encode($0))" } ?? name
        }
        let baseQuery = components.percentEncodedQuery.map { $0.isEmpty ? [] : [$0] } ?? []
        let fullQuery = (baseQuery + items).joined(separator: "&")
        components.percentEncodedQuery = fullQuery.isEmpty ? nil : fullQuery
        components.fragment = nil
        guard let url = components.url else {
            throw .invalidRequest(reason: "the base URL and the endpoint path do not form a valid URL")
        }

        var request = HTTPRequest(method: method, url: url)
        if let body {
            request.body = HTTPBody(try body.data(defaultEncoder: encoder))
            request.fields["Content-Type"] = body.contentType
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            request.fields[name] = value
        }
        return request
    }
}

extension Endpoint {
    /// A `GET` endpoint.
    ///
    /// - Parameters:
    ///   - path: The path; interpolated values are one segment each.
    ///   - query: The query items, in order.
    ///   - headers: Header fields to set.
    /// - Returns: The endpoint.
    public static func get(_ path: EndpointPath, query: [URLQueryItem] = [], headers: [String: String] = [:])
        -> Endpoint
    {
        Endpoint(method: .get, path: path, query: query, headers: headers)
    }

    /// A `DELETE` endpoint.
    ///
    /// - Parameters:
    ///   - path: The path; interpolated values are one segment each.
    ///   - query: The query items, in order.
    ///   - headers: Header fields to set.
    /// - Returns: The endpoint.
    public static func delete(_ path: EndpointPath, query: [URLQueryItem] = [], headers: [String: String] = [:])
        -> Endpoint
    {
        Endpoint(method: .delete, path: path, query: query, headers: headers)
    }

    /// A `POST` endpoint whose body is `body` encoded as JSON.
    ///
    /// - Parameters:
    ///   - path: The path; interpolated values are one segment each.
    ///   - body: The value sent as JSON, encoded with the client's encoder.
    ///   - query: The query items, in order.
    ///   - headers: Header fields to set.
    /// - Returns: The endpoint.
    public static func post(
        _ path: EndpointPath,
        body: some Encodable & Sendable,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:]
    ) -> Endpoint {
        Endpoint(method: .post, path: path, query: query, headers: headers, body: .json(body))
    }

    /// A `POST` endpoint with a prepared body, or none.
    ///
    /// - Parameters:
    ///   - path: The path; interpolated values are one segment each.
    ///   - body: The body, for example ``RequestBody/data(_:contentType:)``; none by default.
    ///   - query: The query items, in order.
    ///   - headers: Header fields to set.
    /// - Returns: The endpoint.
    public static func post(
        _ path: EndpointPath,
        body: RequestBody? = nil,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:]
    ) -> Endpoint {
        Endpoint(method: .post, path: path, query: query, headers: headers, body: body)
    }

    /// A `PUT` endpoint whose body is `body` encoded as JSON.
    ///
    /// - Parameters:
    ///   - path: The path; interpolated values are one segment each.
    ///   - body: The value sent as JSON, encoded with the client's encoder.
    ///   - query: The query items, in order.
    ///   - headers: Header fields to set.
    /// - Returns: The endpoint.
    public static func put(
        _ path: EndpointPath,
        body: some Encodable & Sendable,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:]
    ) -> Endpoint {
        Endpoint(method: .put, path: path, query: query, headers: headers, body: .json(body))
    }

    /// A `PATCH` endpoint whose body is `body` encoded as JSON.
    ///
    /// - Parameters:
    ///   - path: The path; interpolated values are one segment each.
    ///   - body: The value sent as JSON, encoded with the client's encoder.
    ///   - query: The query items, in order.
    ///   - headers: Header fields to set.
    /// - Returns: The endpoint.
    public static func patch(
        _ path: EndpointPath,
        body: some Encodable & Sendable,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:]
    ) -> Endpoint {
        Endpoint(method: .patch, path: path, query: query, headers: headers, body: .json(body))
    }
}

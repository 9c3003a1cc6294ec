import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import Testing

@Suite struct APIEndpointTests {
    // MARK: Path joining

    @Test(
        "Base URLs with or without a trailing slash join paths with or without a leading slash",
        arguments: [
            ("https://api.example.com", "/books/1", "https://api.example.com/books/1"),
            ("https://api.example.com/", "/books/1", "https://api.example.com/books/1"),
            ("https://api.example.com", "books/1", "https://api.example.com/books/1"),
            ("https://api.example.com/", "books/1", "https://api.example.com/books/1"),
            ("https://api.example.com/v2", "/books", "https://api.example.com/v2/books"),
            ("https://api.example.com/v2/", "/books", "https://api.example.com/v2/books"),
            ("https://api.example.com/v2", "books", "https://api.example.com/v2/books"),
            ("https://api.example.com/v2/", "books", "https://api.example.com/v2/books"),
            ("https://api.example.com/v2//", "books/", "https://api.example.com/v2/books/"),
            ("http://127.0.0.1:8080/api/v1/", "/", "http://127.0.0.1:8080/api/v1/"),
        ]
    )
    func joinsBaseAndPath(base: String, path: String, expected: String) throws {
        let request = try Endpoint<Book>.get(EndpointPath(path)).request(baseURL: url(base))
        #expect(request.url.absoluteString == expected)
        #expect(request.method.rawValue == "GET")
    }

    @Test(
        "An interpolated path value stays exactly one percent-encoded segment",
        arguments: [
            ("a/b", "a%2Fb"),
            ("what?", "what%3F"),
            ("#1", "%231"),
            ("100%", "100%25"),
            ("%2F", "%252F"),
            ("two words", "two%20words"),
            ("a+b", "a%2Bb"),
            ("café", "caf%C3%A9"),
            ("日本", "%E6%97%A5%E6%9C%AC"),
            ("..x", "..x"),
            ("a;b=c&d", "a%3Bb%3Dc%26d"),
        ]
    )
    func encodesInterpolatedSegments(value: String, encoded: String) throws {
        let request = try Endpoint<Book>.get("/books/\(value)/reviews").request(
            baseURL: url("https://api.example.com/v2/"))
        let requestURL = request.url
        #expect(requestURL.absoluteString == "https://api.example.com/v2/books/\(encoded)/reviews")

        let components = try #require(URLComponents(url: requestURL, resolvingAgainstBaseURL: false))
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        #expect(segments.count == 5)
        #expect(segments[3].removingPercentEncoding == value)
        #expect(requestURL.host == "api.example.com")
        #expect(components.query == nil)
        #expect(components.fragment == nil)
    }

    @Test("A path built from segments encodes each one as one segment")
    func pathFromSegments() throws {
        let endpoint = Endpoint<Book>(method: .get, path: EndpointPath(segments: ["books", "a/b", "c d"]))
        let request = try endpoint.request(baseURL: url("https://api.example.com"))
        #expect(request.url.absoluteString == "https://api.example.com/books/a%2Fb/c%20d")
    }

    @Test("An interpolated value and literal text share one segment")
    func interpolationInsideASegment() throws {
        let id = 42
        let request = try Endpoint<Book>.get("/books/\(id).json").request(baseURL: url("https://api.example.com"))
        #expect(request.url.absoluteString == "https://api.example.com/books/42.json")
    }

    // MARK: Query

    @Test(
        "Query values with reserved characters are encoded and round-trip through URLComponents",
        arguments: ["a&b=c", "1+1", "x/y?z#w", "100%", "two words", "日本 ✓", "=&+", ""]
    )
    func queryValuesRoundTrip(value: String) throws {
        let endpoint = Endpoint<[Book]>.get("/books", query: [URLQueryItem(name: "q", value: value)])
            .query("page size", "2")
        let request = try endpoint.request(baseURL: url("https://api.example.com"))
        let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        #expect(
            components.queryItems == [
                URLQueryItem(name: "q", value: value), URLQueryItem(name: "page size", value: "2"),
            ])
        #expect(components.percentEncodedPath == "/books")
        let rawQuery = try #require(components.percentEncodedQuery)
        #expect(!rawQuery.contains("+"))
        #expect(rawQuery.filter { $0 == "&" }.count == 1)
        #expect(rawQuery.filter { $0 == "=" }.count == 2)
    }

    @Test("A plus sign in a query value is sent as %2B, never as a literal plus")
    func plusIsPercentEncoded() throws {
        let request = try Endpoint<[Book]>.get("/search").query("q", "c++ & more").request(
            baseURL: url("https://api.example.com"))
        #expect(request.url.query == "q=c%2B%2B%20%26%20more")
    }

    @Test("A query item without a value is sent as its name alone, after the base URL's own query")
    func valuelessItemsAndBaseQuery() throws {
        let request = try Endpoint<[Book]>.get("/books").query("flag", nil).query("n", "1")
            .request(baseURL: url("https://api.example.com/v2/?version=3#section"))
        #expect(request.url.absoluteString == "https://api.example.com/v2/books?version=3&flag&n=1")
    }

    // MARK: Bad endpoints

    @Test(
        "Empty, absolute, network-path, dot and malformed paths are rejected as invalid requests",
        arguments: [
            EndpointPath(""),
            "https://evil.example/x",
            "HTTP://evil.example",
            "//evil.example/x",
            "/books/../admin",
            "../admin",
            "/books/..",
            "/books/./1",
            ".",
            "/books//1",
            "/books?id=1",
            "/books#top",
            "/books/\("..")",
            "/books/\(".")",
            "/books/\("")",
            "\("https://evil.example/x")",
        ] as [EndpointPath]
    )
    func rejectsBadPaths(path: EndpointPath) throws {
        let base = try url("https://api.example.com/v2/")
        let reason = invalidRequestReason { () throws(APIError) in
            _ = try Endpoint<Book>.get(path).request(baseURL: base)
        }
        #expect(reason != nil)
    }

    @Test("A colon inside a path segment is not mistaken for an absolute URL")
    func colonInsideSegmentIsAllowed() throws {
        let request = try Endpoint<Book>.post("/v1/books:batchGet").request(baseURL: url("https://api.example.com"))
        #expect(request.url.absoluteString == "https://api.example.com/v1/books%3AbatchGet")
    }

    @Test(
        "A base URL that is not an absolute http or https URL is rejected",
        arguments: ["ftp://files.example.com/", "file:///tmp/", "/relative/path"]
    )
    func rejectsBadBaseURLs(base: String) throws {
        let baseURL = try url(base)
        let reason = invalidRequestReason { () throws(APIError) in
            _ = try Endpoint<Book>.get("/books").request(baseURL: baseURL)
        }
        #expect(reason?.contains("base URL") == true)
    }

    // MARK: Bodies and headers

    @Test("A JSON body is encoded with the client's encoder and sent as application/json")
    func jsonBodyUsesDefaultEncoder() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let endpoint = Endpoint<Order>.post("/orders", body: Order(item: "tea", unitPrice: 3))
        let request = try endpoint.request(baseURL: url("https://api.example.com"), encoder: encoder)
        #expect(request.method.rawValue == "POST")
        #expect(request.fields["Content-Type"] == "application/json")
        #expect(
            request.body?.bufferedData.map { String(decoding: $0, as: UTF8.self) } == #"{"item":"tea","unit_price":3}"#)
    }

    @Test("A JSON body with its own encoder ignores the client's encoder")
    func jsonBodyWithOwnEncoder() throws {
        let own = JSONEncoder()
        own.keyEncodingStrategy = .convertToSnakeCase
        let endpoint = Endpoint<Order>(
            method: .put, path: "/orders/1", body: .json(Order(item: "tea", unitPrice: 3), encoder: own))
        let request = try endpoint.request(baseURL: url("https://api.example.com"))
        let body = try #require(request.body?.bufferedData)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect(object?["unit_price"] as? Int == 3)
        #expect(request.method.rawValue == "PUT")
    }

    @Test("A raw body is sent verbatim with its content type, and an explicit Content-Type header wins")
    func rawBodyAndHeaderOverride() throws {
        let bytes = Data("hello".utf8)
        let plain = try Endpoint<EmptyResponse>.post("/notes", body: .data(bytes, contentType: "text/plain"))
            .header("X-Trace", "1")
            .request(baseURL: url("https://api.example.com"))
        #expect(plain.body?.bufferedData == bytes)
        #expect(plain.fields["Content-Type"] == "text/plain")
        #expect(plain.fields["X-Trace"] == "1")

        let overridden = try Endpoint<Order>.patch(
            "/orders/1", body: Order(item: "tea", unitPrice: 3),
            headers: ["Content-Type": "application/merge-patch+json"]
        )
        .request(baseURL: url("https://api.example.com"))
        #expect(overridden.fields["Content-Type"] == "application/merge-patch+json")
        #expect(overridden.method.rawValue == "PATCH")
    }

    @Test("A body that cannot be encoded is an invalid request naming the coding path")
    func unencodableBody() throws {
        struct Measurement: Encodable, Sendable { var value: Double }
        let base = try url("https://api.example.com")
        let reason = invalidRequestReason { () throws(APIError) in
            _ = try Endpoint<EmptyResponse>.post("/measurements", body: [Measurement(value: .nan)]).request(
                baseURL: base)
        }
        #expect(reason?.contains("[0].value") == true)
    }

    @Test(
        "Factories set the method they are named after",
        arguments: [
            (Endpoint<EmptyResponse>.get("/x"), "GET"),
            (.delete("/x"), "DELETE"),
            (.post("/x"), "POST"),
            (.put("/x", body: [1]), "PUT"),
            (.patch("/x", body: [1]), "PATCH"),
            (Endpoint(method: HTTPMethod(rawValue: "PROPFIND"), path: "/x"), "PROPFIND"),
            (Endpoint(method: HTTPMethod(rawValue: "propfind"), path: "/x"), "propfind"),
        ])
    func factoriesSetMethods(endpoint: Endpoint<EmptyResponse>, method: String) throws {
        let request = try endpoint.request(baseURL: url("https://api.example.com"))
        #expect(request.method.rawValue == method)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct APIErrorTests {
    struct Credentials: Codable, Sendable {
        var user: String
        var password: String
    }

    static let secrets = ["SECRET-QUERY", "SECRET-TOKEN", "SECRET-BODY"]

    /// An endpoint carrying a secret in its query, its Authorization header and its body.
    static func secretEndpoint<R>(_ path: EndpointPath = "/session") -> Endpoint<R> {
        Endpoint<R>.post(
            path, body: Credentials(user: "ada", password: "SECRET-BODY"),
            headers: ["Authorization": "Bearer SECRET-TOKEN"]
        )
        .query("api_key", "SECRET-QUERY")
    }

    enum Failure: String, CaseIterable, Sendable {
        case transportWithFailingURL, transportOther, status, nonJSON, truncatedJSON, emptyBody, wrongType
    }

    static func reply(for failure: Failure, to request: HTTPRequest) -> ScriptedTransport.Reply {
        switch failure {
        case .transportWithFailingURL:
            // URLError embeds the failing URL, query included, in its own description.
            .failure(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: request.url]))
        case .transportOther:
            .failure(HTTPTransportError.nonHTTPResponse)
        case .status:
            .status(401, body: Data("unauthorised".utf8))
        case .nonJSON:
            .ok("<html></html>")
        case .truncatedJSON:
            .ok(#"{"title":"#)
        case .emptyBody:
            .ok()
        case .wrongType:
            .ok(#"{"title":"T","author":{"name":1}}"#)
        }
    }

    @Test(
        "No error description contains the query, the Authorization header or the request body",
        arguments: Failure.allCases)
    func descriptionsHoldNoSecrets(failure: Failure) async throws {
        let transport = ScriptedTransport { request in Self.reply(for: failure, to: request) }
        let client = try APIClient(baseURL: url("https://api.example.com/v2/"), transport: transport)
        do {
            _ = try await client.send(Self.secretEndpoint() as Endpoint<Book>)
            Issue.record("expected an error")
        } catch let error as APIError {
            for text in [error.description, String(describing: error), String(reflecting: error), "\(error)"] {
                for secret in Self.secrets {
                    #expect(!text.contains(secret), "\(failure): \(text)")
                }
                #expect(!text.contains("/v2/session"), "the host may show, the path and query never")
            }
            if failure == .transportWithFailingURL, error.isTransport, let underlying = error.underlying {
                // The redaction matters: the underlying error itself does name the URL.
                #expect(String(describing: underlying).contains("SECRET-QUERY"))
            }
        }
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.url.query?.contains("SECRET-QUERY") == true)
    }

    @Test("An invalid request's description does not quote the path or the body")
    func invalidRequestDescriptionHoldsNoSecrets() throws {
        let base = try url("https://api.example.com")
        let reason = invalidRequestReason { () throws(APIError) in
            _ = try (Self.secretEndpoint("/users/\("..")") as Endpoint<Book>).request(baseURL: base)
        }
        let description = APIError.invalidRequest(reason: reason ?? "").description
        for secret in Self.secrets {
            #expect(!description.contains(secret))
        }
        #expect(description.hasPrefix("invalid request: "))
    }

    @Test(
        "Each description names the failing stage",
        arguments: [
            (
                APIError.invalidRequest(reason: "the endpoint path is empty"),
                "invalid request: the endpoint path is empty"
            ),
            (.transport(underlying: URLError(.timedOut)), "transport failure: timedOut (URLError -1001)"),
            (
                .transport(underlying: HTTPTransportError.nonHTTPResponse),
                "transport failure: the server's reply was not an HTTP response"
            ),
            (.unacceptableStatus(code: 404, bodySnippet: "missing"), "unacceptable status 404; body starts: missing"),
            (.unacceptableStatus(code: 503, bodySnippet: ""), "unacceptable status 503 with an empty body"),
            (
                .decoding(type: "Book", codingPath: "author.name", reason: "the key is missing"),
                "could not decode Book at author.name: the key is missing"
            ),
        ]
    )
    func descriptionsNameTheStage(error: APIError, expected: String) {
        #expect(error.description == expected)
    }
}

/// The API layer end to end: a real HTTP/1.1 server on loopback, reached through `URLSessionTransport`.
@Suite struct APILoopbackTests {
    @Test("An endpoint travels through URLSessionTransport to a loopback server and back, encoded and decoded")
    func endToEnd() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/v2/books/a%2Fb%20c") { request in
            let json = #"{"title":"Query was \#(request.query ?? "")","author":{"name":"Ursula K. Le Guin"}}"#
            return .init(headers: [("Content-Type", "application/json")], body: Data(json.utf8))
        }
        server.route("POST", "/v2/orders") { request in
            .init(status: 201, headers: [("Content-Type", "application/json")], body: request.body)
        }
        server.route("DELETE", "/v2/loans/1", .init(status: 204))
        server.route("GET", "/v2/broken", .init(status: 500, body: Data("database on fire".utf8)))

        let client = APIClient(baseURL: server.baseURL.appendingPathComponent("v2"), transport: URLSessionTransport())

        let book = try await client.send(Endpoint<Book>.get("/books/\("a/b c")").query("q", "1+1 & more"))
        #expect(book.author.name == "Ursula K. Le Guin")
        #expect(book.title == "Query was q=1%2B1%20%26%20more")

        let order = try await client.send(Endpoint<Order>.post("orders", body: Order(item: "tea", unitPrice: 3)))
        #expect(order == Order(item: "tea", unitPrice: 3))

        _ = try await client.send(Endpoint<EmptyResponse>.delete("/loans/1"))

        do {
            _ = try await client.send(Endpoint<Book>.get("/broken"))
            Issue.record("expected an unacceptable status")
        } catch let error as APIError where error.isUnacceptableStatus {
            let (code, snippet) = (error.statusCode, error.bodySnippet)
            #expect(code == 500)
            #expect(snippet == "database on fire")
        }

        let requests = server.requests
        #expect(requests.map(\.path) == ["/v2/books/a%2Fb%20c", "/v2/orders", "/v2/loans/1", "/v2/broken"])
        #expect(requests.map(\.method) == ["GET", "POST", "DELETE", "GET"])
        #expect(requests[1].header("content-type") == "application/json")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct APIClientTests {
    let base = "https://api.example.com/v2/"

    func client(
        _ transport: ScriptedTransport, decoder: JSONDecoder = JSONDecoder(), acceptableStatus: Range<Int> = 200..<300
    ) throws -> APIClient {
        try APIClient(baseURL: url(base), transport: transport, decoder: decoder, acceptableStatus: acceptableStatus)
    }

    /// Sends `endpoint` and returns the `APIError` it failed with, recording an issue otherwise.
    func apiError<R>(_ client: APIClient, _ endpoint: Endpoint<R>, sourceLocation: SourceLocation = #_sourceLocation)
        async -> APIError?
    {
        do {
            _ = try await client.send(endpoint)
            Issue.record("expected an APIError, the request succeeded", sourceLocation: sourceLocation)
        } catch let error as APIError {
            return error
        } catch {
            Issue.record("expected an APIError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    // MARK: Success

    @Test("A 200 with JSON is decoded into the endpoint's response type")
    func decodesSuccess() async throws {
        let transport = ScriptedTransport([.ok(#"{"title":"Dune","author":{"name":"Frank Herbert"}}"#)])
        let book = try await client(transport).send(Endpoint<Book>.get("/books/\(7)"))
        #expect(book == Book(title: "Dune", author: Author(name: "Frank Herbert")))
        #expect(transport.requests.first?.url.absoluteString == "https://api.example.com/v2/books/7")
    }

    @Test("The configured decoder is used")
    func usesConfiguredDecoder() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let transport = ScriptedTransport([.ok(#"{"item":"tea","unit_price":3}"#)])
        let order = try await client(transport, decoder: decoder).send(Endpoint<Order>.get("/orders/1"))
        #expect(order == Order(item: "tea", unitPrice: 3))
    }

    @Test(
        "An empty response is accepted for 204, an empty 200 and a 200 with a JSON body",
        arguments: [(204, ""), (200, ""), (200, "{}"), (202, "queued")]
    )
    func emptyResponsesAreAccepted(status: Int, body: String) async throws {
        let transport = ScriptedTransport([.status(status, body: Data(body.utf8))])
        let value = try await client(transport).send(Endpoint<EmptyResponse>.delete("/loans/1"))
        #expect(value == EmptyResponse())
        #expect(transport.requests.first?.method.rawValue == "DELETE")
    }

    @Test("A custom acceptable status range decodes bodies outside 2xx")
    func customAcceptableStatus() async throws {
        let transport = ScriptedTransport([.status(404, body: Data(#"{"name":"nobody"}"#.utf8))])
        let author = try await client(transport, acceptableStatus: 200..<500).send(Endpoint<Author>.get("/authors/0"))
        #expect(author.name == "nobody")
    }

    // MARK: Errors by stage

    @Test(
        "A bad endpoint fails as an invalid request and never reaches the transport",
        arguments: [
            EndpointPath(""), "https://evil.example/x", "//evil.example/x", "/books/../admin", "/books/\("..")",
        ] as [EndpointPath])
    func badEndpointNeverReachesTransport(path: EndpointPath) async throws {
        let transport = ScriptedTransport([.ok("{}")])
        let error = await apiError(try client(transport), Endpoint<EmptyResponse>.get(path))
        guard error?.isInvalidRequest == true else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("A transport failure is reported with the underlying error")
    func transportFailure() async throws {
        let transport = ScriptedTransport([.failure(URLError(.notConnectedToInternet))])
        let error = await apiError(try client(transport), Endpoint<Book>.get("/books/1"))
        guard let error, error.isTransport, let underlying = error.underlying else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        #expect((underlying as? URLError)?.code == .notConnectedToInternet)
        #expect(error.description.hasPrefix("transport failure"))
    }

    @Test("An unacceptable status carries the status and a body snippet capped at 512 bytes")
    func unacceptableStatusWithCappedSnippet() async throws {
        let body = String(repeating: "not found. ", count: 200)
        let transport = ScriptedTransport([.status(404, body: Data(body.utf8))])
        let error = await apiError(try client(transport), Endpoint<Book>.get("/books/404"))
        guard let error, let code = error.statusCode, let snippet = error.bodySnippet else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(code == 404)
        #expect(snippet.hasPrefix(String(body.prefix(APIError.bodySnippetLimit))))
        #expect(snippet.utf8.count <= APIError.bodySnippetLimit + "…".utf8.count)
        #expect(error.description.contains("404"))
    }

    @Test("A short error body is kept whole and a multi-byte character cut at the cap does not fail")
    func shortAndCutSnippets() async throws {
        let cut = Data(repeating: UInt8(ascii: "a"), count: APIError.bodySnippetLimit - 1) + Data("é and more".utf8)
        let transport = ScriptedTransport([.status(500, body: Data("oops".utf8)), .status(503, body: cut)])
        let client = try client(transport)
        let first = await apiError(client, Endpoint<Book>.get("/a"))
        let second = await apiError(client, Endpoint<Book>.get("/b"))
        guard first?.statusCode == 500, first?.bodySnippet == "oops", second?.statusCode == 503,
            let snippet = second?.bodySnippet
        else {
            Issue.record(
                "expected two unacceptableStatus errors, got \(String(describing: first)), \(String(describing: second))"
            )
            return
        }
        #expect(snippet.hasSuffix("…"))
    }

    @Test(
        "Bodies that are not the expected JSON fail as decoding errors with a reason",
        arguments: [
            ("<html>Service Unavailable</html>", "<root>"),
            (#"{"title":"Dune","au"#, "<root>"),
            ("", "<root>"),
            ("null", "<root>"),
            (#"{"title":"Dune"}"#, "author"),
            (#"{"title":7,"author":{"name":"x"}}"#, "title"),
        ]
    )
    func decodingFailures(body: String, codingPath: String) async throws {
        let transport = ScriptedTransport([.ok(body)])
        let error = await apiError(try client(transport), Endpoint<Book>.get("/books/1"))
        guard let error, error.isDecoding, let type = error.type, let path = error.codingPath, let reason = error.reason
        else {
            Issue.record("expected decoding, got \(String(describing: error))")
            return
        }
        #expect(type == "Book")
        #expect(path == codingPath)
        #expect(!reason.isEmpty)
    }

    @Test("A 200 or 204 with an empty body where a value was expected says the body is empty", arguments: [200, 204])
    func emptyBodyWhereValueExpected(status: Int) async throws {
        let transport = ScriptedTransport([.status(status)])
        let error = await apiError(try client(transport), Endpoint<Book>.get("/books/1"))
        guard let error, error.type == "Book", error.codingPath == "<root>", let reason = error.reason else {
            Issue.record("expected decoding, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("empty"))
    }

    @Test("A value of the wrong type deep in the body is reported with its readable coding path")
    func wrongTypeReportsCodingPath() async throws {
        let books = (0..<3).map { #"{"title":"T\#($0)","author":{"name":"A\#($0)"}}"# }
        let body = #"{"books":["# + (books + [#"{"title":"T3","author":{"name":42}}"#]).joined(separator: ",") + "]}"
        let transport = ScriptedTransport([.ok(body)])
        let error = await apiError(try client(transport), Endpoint<Library>.get("/library"))
        guard let error, error.type == "Library", let path = error.codingPath, let reason = error.reason else {
            Issue.record("expected decoding, got \(String(describing: error))")
            return
        }
        #expect(path == "books[3].author.name")
        #expect(reason.contains("String"))
        #expect(error.description.contains("books[3].author.name"))
    }

    // MARK: Cancellation

    @Test("Cancelling the calling task surfaces as CancellationError, not as an APIError")
    func cancellationWhileWaiting() async throws {
        let transport = ScriptedTransport([.ok("{}").delayed(by: .seconds(3_600))])
        let client = try client(transport)
        let task = Task { try await client.send(Endpoint<EmptyResponse>.get("/slow")) }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("A URLError(.cancelled) from a cancelled task surfaces as CancellationError")
    func urlErrorCancelledBecomesCancellationError() async throws {
        let started = AsyncStream<Void>.makeStream()
        let transport = ScriptedTransport { _ in
            started.continuation.yield()
            do {
                try await Task.sleep(for: .seconds(3_600))
            } catch {
                throw URLError(.cancelled)
            }
            return .ok("{}")
        }
        let client = try client(transport)
        let task = Task { try await client.send(Endpoint<EmptyResponse>.get("/slow")) }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("A URLError(.cancelled) without task cancellation is a transport failure")
    func urlErrorCancelledWithoutCancellationIsTransport() async throws {
        let transport = ScriptedTransport([.failure(URLError(.cancelled))])
        let error = await apiError(try client(transport), Endpoint<EmptyResponse>.get("/x"))
        guard error?.isTransport == true else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
    }
}

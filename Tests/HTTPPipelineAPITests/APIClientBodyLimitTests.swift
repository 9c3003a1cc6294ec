import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import HTTPPipelineTesting
import Testing

/// How much of a response body the client reads: at most its limit for a body it decodes, and
/// only the snippet's bytes for an error body.
@Suite struct APIClientBodyLimitTests {
    /// Chunks of `size` bytes without end, counting how many were made.
    struct EndlessChunks: AsyncSequence, Sendable {
        typealias Element = Data
        let size: Int
        let made: Locked<Int>

        struct Iterator: AsyncIteratorProtocol {
            let chunks: EndlessChunks

            mutating func next() async throws -> Data? {
                chunks.made.withLock { $0 += 1 }
                return Data(repeating: UInt8(ascii: "x"), count: chunks.size)
            }
        }

        func makeAsyncIterator() -> Iterator { Iterator(chunks: self) }
    }

    /// A transport whose every response has `status` and a body streamed without end.
    struct EndlessTransport: HTTPTransport {
        let status: Int
        let chunkSize: Int
        let made = Locked(0)

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            HTTPResponse(
                status: .init(code: status), body: HTTPBody(stream: EndlessChunks(size: chunkSize, made: made)))
        }
    }

    func client(_ transport: any HTTPTransport, responseBodyLimit: Int) throws -> APIClient {
        try APIClient(
            baseURL: url("https://api.example.com/v2/"), transport: transport, responseBodyLimit: responseBodyLimit)
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

    @Test("A body one byte longer than responseBodyLimit fails with responseTooLarge; one at the limit decodes")
    func bufferedBodyPastTheLimitIsTooLarge() async throws {
        let json = #"{"name":"Ursula K. Le Guin"}"#
        let atLimit = json + String(repeating: " ", count: 100 - json.utf8.count)
        let transport = ScriptedTransport([.ok(atLimit), .ok(atLimit + " ")])
        let client = try client(transport, responseBodyLimit: 100)

        let author = try await client.send(Endpoint<Author>.get("/authors/1"))
        let error = await apiError(client, Endpoint<Author>.get("/authors/1"))

        #expect(author.name == "Ursula K. Le Guin")
        guard let error, error.isResponseTooLarge, let limit = error.limit else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 100)
        #expect(error.description == "the response body is longer than the limit of 100 bytes")
    }

    @Test("A streamed body without end stops at responseBodyLimit with responseTooLarge, reading one chunk past it")
    func endlessBodyStopsAtTheLimit() async throws {
        let transport = EndlessTransport(status: 200, chunkSize: 1_000)
        let error = await apiError(
            try client(transport, responseBodyLimit: 10_500), Endpoint<EmptyResponse>.get("/download"))

        guard let error, error.isResponseTooLarge, let limit = error.limit else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 10_500)
        #expect(transport.made.value == 11)
    }

    @Test("An error status with a streamed body without end returns a snippet of at most bodySnippetLimit bytes and …")
    func errorStatusReadsOnlyTheSnippet() async throws {
        let transport = EndlessTransport(status: 502, chunkSize: 100)
        let error = await apiError(
            try client(transport, responseBodyLimit: 1 << 20), Endpoint<Author>.get("/authors/1"))

        guard let error, let code = error.statusCode, let snippet = error.bodySnippet else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(code == 502)
        #expect(snippet == String(repeating: "x", count: APIError.bodySnippetLimit) + "…")
        #expect(snippet.utf8.count <= APIError.bodySnippetLimit + "…".utf8.count)
        // One byte past the limit tells that the body goes on: 513 bytes are six chunks of 100.
        #expect(transport.made.value <= (APIError.bodySnippetLimit + 1 + 99) / 100)
    }

    @Test("An error body exactly bodySnippetLimit bytes long is kept whole, without …")
    func errorBodyAtTheSnippetLimitIsWhole() async throws {
        let body = String(repeating: "e", count: APIError.bodySnippetLimit)
        let transport = ScriptedTransport([.status(404, body: Data(body.utf8))])
        let error = await apiError(try client(transport, responseBodyLimit: 1 << 20), Endpoint<Author>.get("/a"))

        guard let error, error.statusCode == 404, let snippet = error.bodySnippet else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(snippet == body)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A rejected request is replayed only when its body can be sent again, over real sockets.
@Suite struct AuthReplayBodyTests {
    @Test("A rejected upload with a streamed body is refreshed for but not replayed without its bytes")
    func streamedBodyIsNotReplayedEmpty() async throws {
        let server = LoopbackServer()
        server.route("POST", "/upload") { request in
            guard request.header("Authorization") == "Bearer token-1" else { return .init(status: 401) }
            return .init(status: 201, body: Data("stored \(request.body.count) bytes".utf8))
        }
        try server.start()
        defer { server.stop() }
        let source = TestSource()
        let pipeline = Pipeline(transport: URLSessionTransport()) { AuthMiddleware(source: source) }
        var upload = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
        upload.httpMethod = "POST"
        let payload = Data(repeating: 0x61, count: 100_000)
        upload.httpBodyStream = InputStream(data: payload)

        let (body, response) = try await pipeline.send(upload)
        #expect(response.statusCode == 401, "got \(response.statusCode): \(String(decoding: body, as: UTF8.self))")
        #expect(server.requests.map(\.body.count) == [100_000])
        #expect(source.refreshes == 1, "the credential is still refreshed for the next request")

        var buffered = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
        buffered.httpMethod = "POST"
        buffered.httpBody = payload
        let (stored, accepted) = try await pipeline.send(buffered)
        #expect(accepted.statusCode == 201)
        #expect(String(decoding: stored, as: UTF8.self) == "stored 100000 bytes")
    }
}

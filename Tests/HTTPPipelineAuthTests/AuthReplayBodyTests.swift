import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import HTTPPipelineURLSession
import TestSupport
import Testing

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
        let patient = AuthOptions(refreshTimeout: .seconds(86_400))  // no stall can cut the refresh
        let pipeline = Pipeline(transport: URLSessionTransport()) { AuthMiddleware(source: source, options: patient) }
        let payload = Data(repeating: 0x61, count: 100_000)
        let upload = HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("upload"),
            body: HTTPBody(stream: chunks(of: payload), length: payload.count))

        let response = try await pipeline.send(upload)
        let body = try await response.bytes()
        #expect(response.status == 401, "got \(response.status): \(String(decoding: body, as: UTF8.self))")
        #expect(server.requests.map(\.body.count) == [100_000])
        #expect(source.refreshes == 1, "the credential is still refreshed for the next request")

        let buffered = HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("upload"), body: HTTPBody(payload))
        let accepted = try await pipeline.send(buffered)
        #expect(accepted.status == 201)
        #expect(String(decoding: try await accepted.bytes(), as: UTF8.self) == "stored 100000 bytes")
    }
}

/// What a rejected upload's body allows: a single-pass stream is sent once and its 401 returned;
/// a body that can be read again is replayed whole with the new credential.
@Suite struct AuthUploadReplayTests {
    /// The kinds of body that can be read more than once.
    enum ReplayableBody: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case buffered
        case replayableStream

        func make(_ payload: Data) -> HTTPBody {
            switch self {
            case .buffered: HTTPBody(payload)
            case .replayableStream: HTTPBody(length: payload.count, replayable: { chunks(of: payload) })
            }
        }

        var testDescription: String { rawValue }
    }

    @Test("A consumed upload is never replayed empty: a single-pass body rejected with 401 is sent once, whole")
    func singlePassUploadIsSentOnceAndItsRejectionReturned() async throws {
        let source = TestSource()
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let upload = HTTPRequest(
            method: .post, url: testURL,
            body: HTTPBody(stream: chunks(of: uploadPayload), length: uploadPayload.count))
        #expect(upload.isReplayable == false)

        let response = try await pipeline.send(upload)

        #expect(response.status == 401, "the caller gets the rejection, not a replay without the bytes")
        #expect(response.fields["WWW-Authenticate"] == "Bearer")
        #expect(transport.requests.count == 1, "the body was handed to the transport exactly once")
        let sent = try #require(transport.requests.first)
        #expect(sent.body?.bufferedData?.count == 100_000)
        #expect(sent.body?.bufferedData == uploadPayload)
        #expect(sent.fields["Authorization"] == "Bearer token-0")
        #expect(source.refreshes == 1, "the refresh still runs, for the requests that follow")
        #expect(source.state.value.persisted == ["token-1"])
    }

    @Test("After a single-pass upload is rejected, the next request carries the refreshed credential")
    func requestAfterARejectedSinglePassUploadUsesTheNewCredential() async throws {
        let source = TestSource()
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let upload = HTTPRequest(
            method: .post, url: testURL,
            body: HTTPBody(stream: chunks(of: uploadPayload), length: uploadPayload.count))
        #expect(try await pipeline.send(upload).status == 401)

        let next = try await pipeline.send(HTTPRequest(url: testURL))

        #expect(next.status == 200)
        #expect(String(decoding: try await next.bytes(), as: UTF8.self) == "hello")
        #expect(transport.requests.map { $0.fields["Authorization"] } == ["Bearer token-0", "Bearer token-1"])
        #expect(source.refreshes == 1, "no second refresh")
    }

    @Test(
        "A rejected upload whose body can be read again is replayed with every byte and the new credential",
        arguments: ReplayableBody.allCases)
    func replayableUploadIsReplayedWholeWithTheNewCredential(kind: ReplayableBody) async throws {
        let source = TestSource()
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let upload = HTTPRequest(method: .post, url: testURL, body: kind.make(uploadPayload))
        #expect(upload.isReplayable)

        let response = try await pipeline.send(upload)

        #expect(response.status == 200)
        #expect(String(decoding: try await response.bytes(), as: UTF8.self) == "hello")
        #expect(transport.requests.count == 2)
        #expect(transport.requests.map { $0.fields["Authorization"] } == ["Bearer token-0", "Bearer token-1"])
        #expect(transport.requests.map { $0.body?.bufferedData?.count } == [100_000, 100_000])
        #expect(transport.requests.allSatisfy { $0.body?.bufferedData == uploadPayload }, "identical bytes each time")
        #expect(transport.requests.allSatisfy { $0.method == .post && $0.url == testURL })
        #expect(source.refreshes == 1)
    }
}

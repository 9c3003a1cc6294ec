import Foundation
import HTTPPipeline
import HTTPPipelineRetry
import HTTPPipelineTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a body allows retry to do: a single-pass stream is sent once and its answer returned; a
/// body that can be read again is sent whole on every attempt.
@Suite struct RetryBodyReplayTests {
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

    /// Requests retry would send again if their body allowed it.
    static let retryableUploads: [(method: String, headers: [String: String])] = [
        ("POST", ["Idempotency-Key": "order-17"]),
        ("PUT", [:]),
    ]

    func singlePass(_ method: String, headers: [String: String]) -> HTTPRequest {
        request(
            method, headers: headers,
            body: HTTPBody(stream: chunks(of: uploadPayload), length: uploadPayload.count))
    }

    @Test(
        "A consumed upload is never replayed empty: a single-pass body answered 503 is sent once, whole",
        arguments: retryableUploads)
    func singlePassUploadAnswered503IsSentOnce(method: String, headers: [String: String]) async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.status(503, body: Data("busy".utf8)), .ok("stored")])
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: exactPolicy(attempts: 3), budget: nil, clock: clock)
        }
        let upload = singlePass(method, headers: headers)
        #expect(upload.isReplayable == false)

        let (result, waits) = await drive(clock) { try await pipeline.send(upload) }

        let response = try result.get()
        #expect(response.status == 503, "the caller gets the 503, not a retry without the bytes")
        #expect(String(decoding: try await response.bytes(), as: UTF8.self) == "busy")
        #expect(transport.requests.count == 1, "exactly one attempt")
        #expect(waits.isEmpty, "no backoff is slept before an attempt that will not be made")
        let sent = try #require(transport.requests.first)
        #expect(sent.body?.bufferedData?.count == 100_000)
        #expect(sent.body?.bufferedData == uploadPayload)
        #expect(sent.method.rawValue == method)
    }

    @Test(
        "A single-pass upload whose attempt failed in transport is not retried: the error is thrown",
        arguments: retryableUploads)
    func singlePassUploadThatFailedInTransportIsNotRetried(method: String, headers: [String: String]) async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.failure(URLError(.networkConnectionLost)), .ok()])
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: exactPolicy(attempts: 3), budget: nil, clock: clock)
        }
        let upload = singlePass(method, headers: headers)

        let (result, waits) = await drive(clock) { try await pipeline.send(upload) }

        #expect(throws: URLError(.networkConnectionLost)) { try result.get() }
        #expect(transport.requests.count == 1)
        #expect(waits.isEmpty)
        #expect(transport.requests.first?.body?.bufferedData == uploadPayload)
    }

    @Test(
        "An upload whose body can be read again is retried with identical bytes on every attempt",
        arguments: ReplayableBody.allCases, retryableUploads)
    func replayableUploadIsRetriedWithIdenticalBytes(
        kind: ReplayableBody, upload: (method: String, headers: [String: String])
    ) async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.status(503), .status(503), .ok("stored")])
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: exactPolicy(attempts: 3), budget: nil, clock: clock)
        }
        let sentRequest = request(upload.method, headers: upload.headers, body: kind.make(uploadPayload))
        #expect(sentRequest.isReplayable)

        let (result, waits) = await drive(clock) { try await pipeline.send(sentRequest) }

        let response = try result.get()
        #expect(response.status == 200)
        #expect(String(decoding: try await response.bytes(), as: UTF8.self) == "stored")
        #expect(waits == [.seconds(1), .seconds(2)])
        #expect(transport.requests.count == 3)
        #expect(transport.requests.map { $0.body?.bufferedData?.count } == [100_000, 100_000, 100_000])
        #expect(transport.requests.allSatisfy { $0.body?.bufferedData == uploadPayload }, "identical bytes each time")
        #expect(transport.requests.allSatisfy { $0.fields == sentRequest.fields && $0.method == sentRequest.method })
    }

    @Test("The policy refuses to replay a single-pass body whatever the method, key or status")
    func policyRefusesASinglePassBody() {
        let policy = RetryPolicy.default
        for (method, headers) in Self.retryableUploads + [("GET", [:])] {
            let streamed = singlePass(method, headers: headers)
            #expect(policy.isReplayable(streamed) == false, "\(method)")
            #expect(policy.shouldRetry(.response(HTTPResponseHead(status: 503)), for: streamed) == false)
            #expect(policy.shouldRetry(.failure(URLError(.timedOut)), for: streamed) == false)
            let buffered = request(method, headers: headers, body: HTTPBody(uploadPayload))
            #expect(policy.isReplayable(buffered), "\(method)")
            #expect(policy.shouldRetry(.response(HTTPResponseHead(status: 503)), for: buffered))
        }
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineRetry
import HTTPPipelineTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct RetryMiddlewareTests {
    @Test func transientStatusIsRetriedWithTheBackoffScheduleUntilSuccess() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.status(503), .status(502), .ok("finally")])
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: exactPolicy(attempts: 3), clock: clock)
        }
        let (result, waits) = await drive(clock) { try await pipeline.send(request()) }
        let response = try result.get()
        #expect(response.status == 200)
        #expect(String(decoding: try await response.bytes(), as: UTF8.self) == "finally")
        #expect(waits == [.seconds(1), .seconds(2)])
        #expect(transport.requests.count == 3)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatusesAreRetriedAndTheLastResponseIsReturned(status: Int) async throws {
        let transport = ScriptedTransport(respond: { _ in .status(status) })
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(attempts: 3), clock: ManualClock())
        }
        let response = try await pipeline.send(request())
        #expect(response.status.code == status)
        #expect(transport.requests.count == 3)
    }

    @Test(arguments: [200, 201, 204, 301, 304, 400, 401, 403, 404, 409, 422, 501, 505])
    func otherStatusesAreReturnedAfterOneAttempt(status: Int) async throws {
        let transport = ScriptedTransport(respond: { _ in .status(status) })
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
        }
        #expect(try await pipeline.send(request()).status.code == status)
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [
        URLError.Code.timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
        .notConnectedToInternet,
    ])
    func transientTransportErrorsAreRetriedAndTheLastIsThrown(code: URLError.Code) async throws {
        let transport = ScriptedTransport(respond: { _ in .failure(URLError(code)) })
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(attempts: 4), clock: ManualClock())
        }
        await #expect(throws: URLError(code)) { try await pipeline.send(request()) }
        #expect(transport.requests.count == 4)
    }

    @Test(arguments: [
        URLError(.cancelled), URLError(.badURL), URLError(.unsupportedURL), URLError(.serverCertificateUntrusted),
        URLError(.serverCertificateHasUnknownRoot), URLError(.secureConnectionFailed),
        URLError(.userAuthenticationRequired),
    ])
    func permanentTransportErrorsAreThrownAfterOneAttempt(error: URLError) async throws {
        let transport = ScriptedTransport(respond: { _ in .failure(error) })
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
        }
        await #expect(throws: error) { try await pipeline.send(request()) }
        #expect(transport.requests.count == 1)
    }

    @Test func errorsThatAreNotURLErrorsAreNotRetried() async throws {
        struct Custom: Error {}
        for error in [Custom(), CancellationError()] as [any Error] {
            let transport = ScriptedTransport(respond: { _ in .failure(error) })
            let pipeline = Pipeline(transport: transport) {
                RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
            }
            _ = try? await pipeline.send(request())
            #expect(transport.requests.count == 1)
        }
    }

    @Test(arguments: ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"])
    func idempotentMethodsAreRetried(method: String) async throws {
        let transport = ScriptedTransport([.status(503), .ok()])
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
        }
        #expect(try await pipeline.send(request(method)).status == 200)
        #expect(transport.requests.count == 2)
    }

    /// Methods are case-sensitive (RFC 9110 §9.1): `get` is an extension method, not `GET`, and
    /// nothing says it is idempotent.
    @Test func aMethodInAnotherCaseIsNotTheStandardOneAndIsNotRetried() async throws {
        let transport = ScriptedTransport([.status(503), .ok()])
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
        }
        #expect(try await pipeline.send(request("get")).status == 503)
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.method.rawValue == "get")
    }

    @Test(arguments: ["POST", "PATCH", "CONNECT"])
    func unsafeMethodsWithoutAnIdempotencyKeyAreSentOnce(method: String) async throws {
        let transport = ScriptedTransport([.status(503), .ok()])
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
        }
        #expect(try await pipeline.send(request(method)).status == 503)
        #expect(transport.requests.count == 1)
    }

    @Test func postWithAnIdempotencyKeyIsRetriedWithTheSameKey() async throws {
        let transport = ScriptedTransport([.failure(URLError(.networkConnectionLost)), .ok()])
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
        }
        _ = try await pipeline.send(request("POST", headers: ["Idempotency-Key": "order-17"]))
        #expect(transport.requests.map { $0.fields["Idempotency-Key"] } == ["order-17", "order-17"])
    }

    @Test func optInAddsOneFreshKeyThatEveryAttemptOfAPostCarries() async throws {
        var policy = immediatePolicy()
        policy.addsIdempotencyKey = true
        let transport = ScriptedTransport([.status(503), .status(503), .ok(), .ok()])
        let pipeline = Pipeline(transport: transport) { RetryMiddleware(policy: policy, clock: ManualClock()) }
        _ = try await pipeline.send(request("POST"))
        _ = try await pipeline.send(request("GET"))
        let keys = transport.requests.map { $0.fields["Idempotency-Key"] }
        #expect(keys.count == 4)
        #expect(keys[0] != nil && keys[0] == keys[1] && keys[1] == keys[2])
        #expect(keys[3] == nil, "a GET needs no key")
    }

    @Test func streamedBodyThatCannotBeReplayedIsSentOnce() async throws {
        let streamed = request("PUT", body: HTTPBody(stream: chunks(of: Data("once".utf8))))
        let transport = ScriptedTransport([.status(503), .ok()])
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
        }
        #expect(try await pipeline.send(streamed).status == 503)
        #expect(transport.requests.count == 1)
    }

    @Test func eachAttemptSeesItsNumberInsideTheRetryLayer() async throws {
        let log = OrderLog()
        let pipeline = Pipeline(transport: ScriptedTransport([.status(500), .status(500), .ok()])) {
            OrderProbe("outside", log: log)
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
            OrderProbe("inside", log: log)
        }
        _ = try await pipeline.send(request())
        #expect(log.events.filter { $0.layer == "inside" && $0.phase == .request }.map(\.attempt) == [1, 2, 3])
        #expect(log.count("outside") == 1)
    }

    @Test func keepsTheMiddlewareContractCallingNextABoundedNumberOfTimes() async throws {
        let middleware = RetryMiddleware(policy: immediatePolicy(attempts: 3), clock: ManualClock())
        let report = await MiddlewareContract(maximumCallsToNext: 3).check(middleware)
        #expect(report.violations.isEmpty, "\(report)")
        let strict = await MiddlewareContract(maximumCallsToNext: 2).check(middleware)
        #expect(strict.violations.map(\.rule) == [.callsNext], "the contract notices a third call")
    }

    @Test(arguments: [
        (URLError(.cannotConnectToHost) as any Error, 3),
        (URLError(.networkConnectionLost) as any Error, 1),
        (CurlLikeFailure(reachedServer: false) as any Error, 3),
        (CurlLikeFailure(reachedServer: true) as any Error, 1),
        (HTTPTransportError.outcomeUnknown as any Error, 1),
    ])
    func aPostIsSentAgainOnlyAfterAFailureThatCameBeforeItWasSent(failure: any Error, attempts: Int) async {
        let transport = ScriptedTransport([.failure(failure), .failure(failure), .failure(failure)])
        // A manual clock the test never moves: the policy's 30 s deadline cannot pass, however
        // long a loaded machine takes between attempts.
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(attempts: 3), clock: ManualClock())
        }
        _ = await outcome(of: pipeline, request("POST", body: HTTPBody(Data("{}".utf8))))
        #expect(transport.requests.count == attempts, "\(failure) reads as \(HTTPFailureClass(failure))")
    }
}

/// A transport error that says, as `CurlTransportError` does, whether the request reached the server.
struct CurlLikeFailure: Error, HTTPTransientFailure {
    let reachedServer: Bool
    var isTransient: Bool { true }
    var mayHaveReachedServer: Bool { reachedServer }
}

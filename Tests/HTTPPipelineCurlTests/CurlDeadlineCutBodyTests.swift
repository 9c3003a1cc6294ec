import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import TestSupport
import Testing

/// A cut deadline bounds a streamed body as the race does.
@Suite struct CurlDeadlineCutBodyTests {
    /// A layer of the caller's own: it makes the deadline above it keep the race.
    struct Stamp: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await next(request)
        }
    }

    @Test func aStreamedBodyReadOnlyAfterTheDeadlinePassedEndsInTheTimeoutWithOrWithoutTheRace() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        // Chunked, so it streams; all of it is in well before the deadline.
        let chunks = (0..<3).map { _ in Data(count: 1_000) }
        server.route("GET", "/drip", .init(body: .chunked(chunks, every: .milliseconds(10))))
        let transport = CurlTransport()
        // The deadline on a manual clock: however slowly a loaded machine sends the requests,
        // it passes only when the test says, after both heads have come.
        let clock = ManualClock()
        let raced = Pipeline(transport: transport) {
            TimeoutMiddleware.deadline(.milliseconds(300), clock: clock)
            Stamp()
        }
        let cut = Pipeline(transport: transport) {
            TimeoutMiddleware.deadline(.milliseconds(300), clock: clock)
            RetryMiddleware(policy: .default)
        }
        #expect(!keepsDeadline(raced))
        #expect(keepsDeadline(cut))

        let racedResponse = try await raced.send(HTTPRequest(url: server.url("drip")))
        let cutResponse = try await cut.send(HTTPRequest(url: server.url("drip")))
        #expect(racedResponse.body.bufferedData == nil && cutResponse.body.bufferedData == nil, "both stream")
        try await Task.sleep(for: .milliseconds(200))  // the bodies come in; nothing is read yet
        clock.advance(by: .seconds(1))  // both deadlines pass

        await #expect(throws: HTTPTimeoutError.self, "the race: the deadline bounds the body") {
            _ = try await racedResponse.body.collect(upTo: 1 << 20)
        }
        await #expect(throws: HTTPTimeoutError.self, "the cut: the same deadline, the same body") {
            _ = try await cutResponse.body.collect(upTo: 1 << 20)
        }
    }
}

/// What a cut deadline's handlers hold once the attempt they were for is over: nothing of it.
@Suite struct CurlDeadlineCutRetentionTests {
    final class WeakRecord: Sendable {
        // Why `nonisolated(unsafe)` is safe: the reference is written once, in `init`, and only
        // read afterwards; the weak reference's own clearing is atomic in the runtime.
        nonisolated(unsafe) weak var record: HTTPTransferRecord?
        init(_ record: HTTPTransferRecord) { self.record = record }
    }

    /// Notes each attempt's transfer record, weakly; it waits for nothing but the layers below.
    struct AttemptSpy: HTTPMiddleware, KeepsDeadline {
        let records = Locked<[WeakRecord]>([])
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            let response = try await next(request)
            if let record = response.context.transferRecord { records.withLock { $0.append(WeakRecord(record)) } }
            return response
        }
    }

    @Test(arguments: [false, true])
    func aRetriedAttemptsTransferIsLetGoOnceItIsOverWhileTheFinalBodyIsStillHeld(raced: Bool) async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let calls = Locked(0)
        server.route("GET", "/flaky") { _ in
            let first = calls.withLock { calls in
                calls += 1
                return calls == 1
            }
            // Chunked bodies: both stream.
            return .init(status: first ? 503 : 200, body: .chunked([Data(count: 1_000)], every: .milliseconds(10)))
        }
        let spy = AttemptSpy()
        let client = Pipeline(transport: CurlTransport()) {
            TimeoutMiddleware.deadline(.seconds(30))
            if raced { CurlDeadlineCutBodyTests.Stamp() }
            RetryMiddleware(policy: .attempts(2, backoff: .immediate))
            spy
        }
        #expect(keepsDeadline(client) == !raced)

        let response = try await client.send(HTTPRequest(url: server.url("flaky")))
        #expect(response.status == 200)
        #expect(spy.records.value.count == 2)
        // The 503's body was dropped by retry and its transfer aborted: nothing needs it now.
        let released = await eventually(within: .seconds(3)) { spy.records.value.first?.record == nil }
        #expect(released, "attempt 1's transfer is still held (raced: \(raced))")
        _ = try await response.body.collect(upTo: 1 << 20)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import TestSupport
import Testing

@Suite("Timeouts and retry")
struct TimeoutRetryTests {
    static func retry(_ clock: ManualClock, backoff: Backoff = .immediate, attempts: Int = 3) -> RetryMiddleware {
        RetryMiddleware(policy: .attempts(attempts, backoff: backoff), budget: nil, clock: clock)
    }

    @Test("Retry retries an attempt cut by a per-attempt timeout")
    func aPerAttemptTimeoutIsRetried() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok("slow").delayed(by: .seconds(5)), .ok("fast")], clock: clock)
        let pipeline = Pipeline(transport: transport) {
            Self.retry(clock)
            TimeoutMiddleware.perAttempt(.seconds(1), clock: clock)
        }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: orderingURL)) }
        #expect(result.status == 200)
        #expect(transport.requests.count == 2)
    }

    @Test(
        "An attempt cut by a per-attempt timeout is never sent again when it cannot be replayed: a POST without an Idempotency-Key, or a single-pass body",
        arguments: [false, true])
    func aPerAttemptTimeoutNeverReplaysWhatCannotBeSentTwice(streamedBody: Bool) async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok("slow").delayed(by: .seconds(5)), .ok("fast")], clock: clock)
        let pipeline = Pipeline(transport: transport) {
            Self.retry(clock)
            TimeoutMiddleware.perAttempt(.seconds(1), clock: clock)
        }
        var request = HTTPRequest(method: streamedBody ? .put : .post, url: orderingURL)
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(Data("order".utf8))
            continuation.finish()
        }
        request.body = streamedBody ? HTTPBody(stream: chunks, length: 5) : HTTPBody(Data("order".utf8))
        let sent = request
        let result = await clock.run { try await pipeline.send(sent) }
        #expect(result.timeout == HTTPTimeoutError(.attempt, after: .seconds(1)))
        #expect(transport.requests.count == 1)
    }

    @Test("Retry never retries an expired total deadline, even one inside it")
    func anExpiredDeadlineIsNotRetried() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok("slow").delayed(by: .seconds(5)), .ok("fast")], clock: clock)
        let pipeline = Pipeline(transport: transport) {
            Self.retry(clock)
            TimeoutMiddleware.deadline(.seconds(1), clock: clock)
        }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: orderingURL)) }
        #expect(result.timeout == HTTPTimeoutError(.total, after: .seconds(1)))
        #expect(transport.requests.count == 1)
        #expect(
            RetryPolicy.default.shouldRetry(
                .failure(HTTPTimeoutError(.attempt, after: .seconds(1))), for: HTTPRequest(url: orderingURL)))
        #expect(
            !RetryPolicy.default.shouldRetry(
                .failure(HTTPTimeoutError(.total, after: .seconds(1))), for: HTTPRequest(url: orderingURL)))
    }

    @Test(
        "Retry waits for another attempt that fits in the deadline outside it, and returns the last response when the wait would not"
    )
    func retryNeverWaitsPastTheContextDeadline() async throws {
        let exact = Backoff.exponential(base: .seconds(1), multiplier: 2, cap: .seconds(8), jitter: .none)
        for (deadline, attempts) in [(Duration.seconds(10), 3), (.seconds(3), 2)] {
            let clock = ManualClock()
            let transport = ScriptedTransport(clock: clock) { _ in .status(503) }
            let pipeline = Pipeline(transport: transport) {
                TimeoutMiddleware.deadline(deadline, clock: clock)
                Self.retry(clock, backoff: exact)
            }
            let result = await clock.run { try await pipeline.send(HTTPRequest(url: orderingURL)) }
            #expect(result.status == 503, "deadline \(deadline): the last response, not a timeout")
            #expect(transport.requests.count == attempts, "deadline \(deadline): waits 1 s, then 2 s only if it fits")
        }
    }
}

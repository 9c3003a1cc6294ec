import Foundation
import HTTPPipeline
import HTTPPipelineCircuitBreaker
import HTTPPipelineRetry
import HTTPPipelineTesting
import TestSupport
import Testing

/// The breaker inside retry: what an open circuit does to the attempts outside it.
@Suite struct CircuitBreakerRetryTests {
    @Test func retryDoesNotRetryTheBreakersRejectionSoAnOpenCircuitEndsTheCallAtOnce() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: CircuitBreakerPolicy(minimumThroughput: 3), clock: clock)
        let transport = ScriptedTransport(clock: clock) { _ in .status(503) }
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: .attempts(3, backoff: .constant(.seconds(1))), budget: nil, clock: clock)
            breaker
        }
        let first = try await clock.run { try await pipeline.send(HTTPRequest(url: orderingURL)) }.get()
        #expect(first.status == 503)
        #expect(transport.requests.count == 3, "three attempts, each judged: the circuit opens")
        let sleeps = clock.sleepCount
        let second = await outcome(of: pipeline, HTTPRequest(url: orderingURL))
        #expect((second.thrown as? CircuitOpenError)?.state == .open)
        #expect(transport.requests.count == 3, "nothing sent")
        #expect(clock.sleepCount == sleeps, "no backoff wait: the rejection is not retried")
    }
}

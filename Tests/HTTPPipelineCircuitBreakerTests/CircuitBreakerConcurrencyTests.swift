import Foundation
import HTTPPipeline
import HTTPPipelineCircuitBreaker
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

@Suite struct CircuitBreakerConcurrencyTests {
    @Test func manyCallersRacingThroughStateChangesSeeAnOrderlySequenceOfChanges() async throws {
        let clock = ManualClock()
        let log = ChangeLog()
        let breaker = CircuitBreakerMiddleware(
            policy: CircuitBreakerPolicy(minimumThroughput: 5, breakDuration: .milliseconds(10), halfOpenProbes: 3),
            clock: clock, onStateChange: log.record)
        let transport = ScriptedTransport(clock: clock) { request in
            Int(request.url.lastPathComponent).map { $0 % 3 == 0 } == true ? .ok() : .status(503)
        }
        let pipeline = Pipeline(transport: transport) { breaker }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<400 {
                group.addTask {
                    if index % 20 == 0 { clock.advance(by: .milliseconds(5)) }
                    return await call(pipeline, HTTPRequest(url: url("\(index)"))).rejection != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        let changes = log.all
        #expect(outcomes.count == 400)
        #expect(transport.requests.count + outcomes.filter { $0 }.count == 400, "every call sent or turned away")
        #expect(changes.first?.from == .closed)
        for (earlier, later) in zip(changes, changes.dropFirst()) {
            #expect(earlier.to == later.from, "\(earlier) then \(later)")
        }
        #expect(changes.count >= 1)
    }

    @Test func retryDoesNotRetryTheBreakersRejectionSoAnOpenCircuitEndsTheCallAtOnce() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: CircuitBreakerPolicy(minimumThroughput: 3), clock: clock)
        let transport = ScriptedTransport(clock: clock) { _ in .status(503) }
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: .attempts(3, backoff: .constant(.seconds(1))), budget: nil, clock: clock)
            breaker
        }
        let first = try await clock.run { try await pipeline.send(HTTPRequest(url: url())) }.get()
        #expect(first.status == 503)
        #expect(transport.requests.count == 3, "three attempts, each judged: the circuit opens")
        let sleeps = clock.sleepCount
        let second = await call(pipeline)
        #expect(second.rejection?.state == .open)
        #expect(transport.requests.count == 3, "nothing sent")
        #expect(clock.sleepCount == sleeps, "no backoff wait: the rejection is not retried")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// Retry's own deadline cuts an attempt in flight from the first retry on; the first attempt runs
/// unraced, so the happy path pays nothing for it.
@Suite("Retry: the policy's deadline and attempts in flight")
struct RetryDeadlineTests {
    @Test("The deadline cuts a retry still in flight and throws a total timeout")
    func theDeadlineCutsARetryInFlight() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.status(503), .ok("late").delayed(by: .seconds(30))], clock: clock)
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: exactPolicy(deadline: .seconds(5)), budget: nil, clock: clock)
        }
        let call = Task { try await pipeline.send(request()) }
        await clock.waitForTimers(1)
        #expect(clock.pendingTimers == [ManualClock.Instant(offset: .seconds(5))], "armed at the first wait")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))  // the wait before the second attempt
        await clock.waitForSleepers(1)  // the second attempt, answering at 31 s
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(31))])
        clock.advance(to: ManualClock.Instant(offset: .seconds(5)))
        let result = await call.result
        #expect(throws: HTTPTimeoutError(.total, after: .seconds(5))) { try result.get() }
        #expect(transport.requests.count == 2)
        #expect(clock.pendingDeadlines.isEmpty, "the attempt's wait was cancelled")
        #expect(clock.pendingTimers.isEmpty)
    }

    @Test("A retry that answers before the deadline is returned, and the race leaves no timer behind")
    func aRetryInTimeIsReturned() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.status(503), .ok("in time").delayed(by: .seconds(2))], clock: clock)
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: exactPolicy(deadline: .seconds(5)), budget: nil, clock: clock)
        }
        let result = await clock.run { try await pipeline.send(request()) }
        #expect(try result.get().status == 200)
        #expect(clock.pendingTimers.isEmpty)
    }

    @Test("The first attempt is not raced: one slower than the deadline still answers")
    func theFirstAttemptIsNotRaced() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok("slow").delayed(by: .seconds(8))], clock: clock)
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: exactPolicy(deadline: .seconds(5)), budget: nil, clock: clock)
        }
        let result = await clock.run { try await pipeline.send(request()) }
        #expect(try result.get().status == 200)
        #expect(transport.requests.count == 1)
    }
}

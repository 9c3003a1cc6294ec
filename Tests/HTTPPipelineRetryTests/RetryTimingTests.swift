import Foundation
import HTTPPipeline
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// `Retry-After`, the deadline, cancellation and the budget, on a manual clock.
@Suite struct RetryTimingTests {
    let dateHeader = "Sun, 06 Nov 1994 08:49:37 GMT"

    func run(_ replies: [ScriptedTransport.Reply], policy: RetryPolicy) async throws -> (
        status: Int, attempts: Int, waits: [Duration]
    ) {
        let clock = ManualClock()
        let transport = ScriptedTransport(replies)
        let pipeline = Pipeline(transport: transport) { RetryMiddleware(policy: policy, clock: clock) }
        let (result, waits) = await drive(clock) { try await pipeline.send(request()) }
        return (try result.get().status.code, transport.requests.count, waits)
    }

    @Test func retryAfterSecondsIsHonouredWhenLongerThanTheBackoff() async throws {
        let outcome = try await run([.status(429, headers: ["Retry-After": "5"]), .ok()], policy: exactPolicy())
        #expect(outcome.waits == [.seconds(5)])
        #expect(outcome.status == 200)
    }

    @Test func retryAfterDateIsMeasuredAgainstTheResponsesDateHeader() async throws {
        let headers = ["Retry-After": "Sun, 06 Nov 1994 08:49:44 GMT", "Date": dateHeader]
        let outcome = try await run([.status(503, headers: headers), .ok()], policy: exactPolicy())
        #expect(outcome.waits == [.seconds(7)])
    }

    @Test func retryAfterBeyondTheMaximumDelayReturnsTheResponseAtOnce() async throws {
        let outcome = try await run([.status(503, headers: ["Retry-After": "3600"]), .ok()], policy: exactPolicy())
        #expect(outcome.status == 503)
        #expect(outcome.attempts == 1)
        #expect(outcome.waits.isEmpty, "no multi-hour sleep")
    }

    @Test(arguments: ["99999999999999999999", "Fri, 31 Dec 9999 23:59:59 GMT"])
    func absurdRetryAfterReturnsTheResponseAtOnce(value: String) async throws {
        let outcome = try await run(
            [.status(429, headers: ["Retry-After": value, "Date": dateHeader]), .ok()], policy: exactPolicy())
        #expect(outcome.status == 429)
        #expect(outcome.waits.isEmpty)
    }

    @Test(arguments: ["-5", "soon", "", "1.5", "Thu, 01 Jan 1970 00:00:00 GMT"])
    func garbageOrPastRetryAfterFallsBackToTheBackoff(value: String) async throws {
        let outcome = try await run(
            [.status(503, headers: ["Retry-After": value, "Date": dateHeader]), .ok()], policy: exactPolicy())
        #expect(outcome.waits == [.seconds(1)])
        #expect(outcome.status == 200)
    }

    @Test func retryAfterOnAStatusThatDoesNotHonourItIsIgnored() async throws {
        let outcome = try await run([.status(500, headers: ["Retry-After": "30"]), .ok()], policy: exactPolicy())
        #expect(outcome.waits == [.seconds(1)])
    }

    @Test func waitThatWouldEndPastTheDeadlineIsNotStarted() async throws {
        // Waits of 1, 2, 4 s; the deadline of 5 s leaves room for the first two only.
        let policy = exactPolicy(attempts: 10, deadline: .seconds(5))
        let outcome = try await run(Array(repeating: .status(503), count: 10), policy: policy)
        #expect(outcome.waits == [.seconds(1), .seconds(2)])
        #expect(outcome.attempts == 3)
        #expect(outcome.status == 503)
    }

    @Test func cancellingDuringABackoffStopsAtOnceWithNoFurtherAttempt() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(respond: { _ in .status(503) })
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: exactPolicy(attempts: 5), clock: clock)
        }
        let call = Task { try await pipeline.send(request()) }
        await clock.waitForSleepers(1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(transport.requests.count == 1)
        #expect(clock.now == .init(offset: .zero), "the clock never had to move")
    }

    @Test func alreadyCancelledTaskStartsNoAttempt() async throws {
        let transport = ScriptedTransport(respond: { _ in .ok() })
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
        }
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pipeline.send(request())
        }
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(transport.requests.isEmpty)
    }

    @Test func budgetBoundsTheExtraLoadOfAThousandFailingCalls() async throws {
        let transport = ScriptedTransport(respond: { _ in .status(503) })
        let budget = try RetryBudget(ratio: 0.2, minimumRetries: 10, window: .seconds(10))
        let retry = RetryMiddleware(policy: immediatePolicy(attempts: 5), budget: budget, clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { retry }
        for _ in 0..<1_000 {
            _ = try await pipeline.send(request())
        }
        let attempts = transport.requests.count
        #expect(attempts <= 1_000 + 200 + 10, "\(attempts) attempts")
        #expect(attempts >= 1_000 + 200, "the budget allows its share: \(attempts) attempts")
    }

    @Test func budgetRefillsWhenTheWindowMovesOn() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(respond: { _ in .status(503) })
        let budget = try RetryBudget(ratio: 0, minimumRetries: 2, window: .seconds(10), clock: clock)
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(attempts: 5), budget: budget, clock: clock)
        }
        _ = try await pipeline.send(request())
        #expect(transport.requests.count == 3, "two retries, then the budget is spent")
        _ = try await pipeline.send(request())
        #expect(transport.requests.count == 4)
        clock.advance(by: .seconds(11))
        _ = try await pipeline.send(request())
        #expect(transport.requests.count == 7)
    }

    @Test func withoutABudgetOnlyTheAttemptCapLimits() async throws {
        let transport = ScriptedTransport(respond: { _ in .status(503) })
        let pipeline = Pipeline(transport: transport) {
            RetryMiddleware(policy: immediatePolicy(attempts: 4), budget: nil, clock: ManualClock())
        }
        for _ in 0..<50 { _ = try await pipeline.send(request()) }
        #expect(transport.requests.count == 200)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// A ``RetryBudget`` shared by several middleware, on manual clocks.
@Suite struct RetryBudgetTests {
    /// Sends `calls` requests in a total outage, alternating between `middleware`, and returns
    /// how many attempts reached the server.
    func attemptsInAnOutage(calls: Int, through middleware: [RetryMiddleware]) async throws -> Int {
        let transport = ScriptedTransport(respond: { _ in .status(503) })
        let pipelines = middleware.map { retry in Pipeline(transport: transport) { retry } }
        for call in 0..<calls {
            _ = try await pipelines[call % pipelines.count].send(request())
        }
        return transport.requests.count
    }

    @Test(
        "A budget shared by two middleware created apart still limits retries",
        arguments: [Duration.seconds(10), .seconds(100), .seconds(3_600)]
    )
    func sharedBudgetLimitsMiddlewareCreatedApart(gap: Duration) async throws {
        let clock = ManualClock()
        let budget = try RetryBudget(ratio: 0.2, minimumRetries: 10, window: .seconds(10), clock: clock)
        let first = RetryMiddleware(policy: immediatePolicy(attempts: 5), budget: budget, clock: clock)
        clock.advance(by: gap)
        let second = RetryMiddleware(policy: immediatePolicy(attempts: 5), budget: budget, clock: clock)
        let attempts = try await attemptsInAnOutage(calls: 1_000, through: [first, second])
        #expect(attempts <= 1_000 + 200 + 10, "\(attempts) attempts for 1,000 calls, \(gap) apart")
        #expect(attempts >= 1_000 + 200, "the budget allows its share: \(attempts) attempts")
    }

    @Test("Middleware on clocks of their own share a budget that keeps its own time")
    func sharedBudgetKeepsItsOwnTime() async throws {
        let budgetClock = ManualClock()
        let budget = try RetryBudget(ratio: 0.2, minimumRetries: 10, window: .seconds(10), clock: budgetClock)
        budgetClock.advance(by: .seconds(5))
        let early = ManualClock()
        early.advance(by: .seconds(3_600))
        let first = RetryMiddleware(policy: immediatePolicy(attempts: 5), budget: budget, clock: early)
        let second = RetryMiddleware(policy: immediatePolicy(attempts: 5), budget: budget, clock: ManualClock())
        let attempts = try await attemptsInAnOutage(calls: 1_000, through: [first, second])
        #expect((1_200...1_210).contains(attempts), "\(attempts) attempts for 1,000 calls")
        budgetClock.advance(by: .seconds(11))
        let afterTheWindow = try await attemptsInAnOutage(calls: 1, through: [second])
        #expect(afterTheWindow == 5, "the window moved on by the budget's clock")
    }

    @Test("A middleware's default budget measures its window on the middleware's clock")
    func defaultBudgetFollowsTheMiddlewareClock() async throws {
        let clock = ManualClock()
        let retry = RetryMiddleware(policy: immediatePolicy(attempts: 5), clock: clock)
        let spent = try await attemptsInAnOutage(calls: 101, through: [retry])
        #expect(spent == 101 + 20 + 10, "20 % of the first attempts plus 10, then none")
        clock.advance(by: .seconds(11))
        let afterTheWindow = try await attemptsInAnOutage(calls: 1, through: [retry])
        #expect(afterTheWindow == 5)
    }

    @Test("A budget given no clock limits middleware on a manual clock by real time")
    func budgetOnItsDefaultClockIgnoresTheMiddlewareClock() async throws {
        let clock = ManualClock()
        let budget = try RetryBudget(ratio: 0, minimumRetries: 2, window: .seconds(10))
        let retry = RetryMiddleware(policy: immediatePolicy(attempts: 5), budget: budget, clock: clock)
        #expect(try await attemptsInAnOutage(calls: 1, through: [retry]) == 3)
        clock.advance(by: .seconds(3_600))
        #expect(try await attemptsInAnOutage(calls: 1, through: [retry]) == 1, "an hour on the manual clock")
    }
}

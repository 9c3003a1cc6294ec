import HTTPPipelineRetry
import Testing

@Suite struct BackoffTests {
    @Test func withoutJitterTheScheduleDoublesUpToTheCap() throws {
        let backoff = try Backoff(base: .seconds(1), multiplier: 2, cap: .seconds(10), jitter: .none)
        let waits = (1...7).map { backoff.delay(beforeRetry: $0, previous: nil, random: .system) }
        #expect(
            waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10), .seconds(10)])
    }

    @Test func fullJitterPicksBetweenZeroAndTheCeiling() throws {
        let backoff = try Backoff(base: .seconds(1), multiplier: 2, cap: .seconds(10), jitter: .full)
        let half = RandomSource { 0.5 }
        #expect(
            (1...5).map { backoff.delay(beforeRetry: $0, previous: nil, random: half) } == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5),
            ])
        #expect(backoff.delay(beforeRetry: 3, previous: nil, random: RandomSource { 0 }) == .zero)
        #expect(backoff.delay(beforeRetry: 3, previous: nil, random: RandomSource { 1 }) == .seconds(4))
    }

    @Test func decorrelatedJitterGrowsFromThePreviousWaitWithinBaseAndCap() throws {
        let backoff = try Backoff(base: .seconds(1), multiplier: 2, cap: .seconds(10), jitter: .decorrelated)
        let top = RandomSource { 1 }
        #expect(backoff.delay(beforeRetry: 1, previous: nil, random: top) == .seconds(3))
        #expect(backoff.delay(beforeRetry: 2, previous: .seconds(3), random: top) == .seconds(9))
        #expect(backoff.delay(beforeRetry: 3, previous: .seconds(9), random: top) == .seconds(10))
        #expect(backoff.delay(beforeRetry: 3, previous: .seconds(9), random: RandomSource { 0 }) == .seconds(1))
    }

    @Test func hugeRetryNumbersStayAtTheCapWithoutOverflow() throws {
        let backoff = try Backoff(base: .seconds(1), multiplier: 100, cap: .seconds(30), jitter: .none)
        #expect(backoff.delay(beforeRetry: Int.max, previous: nil, random: .system) == .seconds(30))
    }

    @Test func randomValuesOutsideTheUnitRangeAreClamped() throws {
        let backoff = try Backoff(base: .seconds(1), cap: .seconds(4), jitter: .full)
        #expect(backoff.delay(beforeRetry: 1, previous: nil, random: RandomSource { 7 }) == .seconds(1))
        #expect(backoff.delay(beforeRetry: 1, previous: nil, random: RandomSource { -.infinity }) == .zero)
        #expect(backoff.delay(beforeRetry: 1, previous: nil, random: RandomSource { .nan }) == .zero)
    }

    @Test func absurdBackoffsAreRefusedWhenBuilt() {
        #expect(throws: RetryPolicyError.self) { try Backoff(base: .seconds(-1), cap: .seconds(1)) }
        #expect(throws: RetryPolicyError.self) { try Backoff(base: .seconds(2), cap: .seconds(1)) }
        #expect(throws: RetryPolicyError.self) { try Backoff(base: .seconds(1), multiplier: 0.5, cap: .seconds(2)) }
        #expect(throws: RetryPolicyError.self) { try Backoff(base: .seconds(1), multiplier: .nan, cap: .seconds(2)) }
        #expect(throws: RetryPolicyError.self) { try Backoff(base: .seconds(1), multiplier: 1_000, cap: .seconds(2)) }
        #expect(throws: RetryPolicyError.self) { try Backoff(base: .seconds(1), cap: .seconds(90_000)) }
    }

    @Test(arguments: [0, -1, 21, Int.max, Int.min])
    func absurdAttemptCountsAreRefusedWhenBuilt(attempts: Int) {
        #expect(throws: RetryPolicyError.invalidAttempts(attempts)) { try RetryPolicy(maximumAttempts: attempts) }
    }

    @Test func absurdDeadlinesAndDelaysAreRefusedWhenBuilt() throws {
        #expect(throws: RetryPolicyError.self) { try RetryPolicy(deadline: .zero) }
        #expect(throws: RetryPolicyError.self) { try RetryPolicy(deadline: .seconds(-5)) }
        #expect(throws: RetryPolicyError.self) { try RetryPolicy(deadline: .seconds(100_000)) }
        #expect(throws: RetryPolicyError.self) { try RetryPolicy(maximumDelay: .seconds(1)) }
        #expect(throws: RetryPolicyError.self) { try RetryBudget(ratio: -0.1) }
        #expect(throws: RetryPolicyError.self) { try RetryBudget(window: .milliseconds(10)) }
        let error = RetryPolicyError.invalidAttempts(0)
        #expect(error.description.contains("1 to 20"))
    }

    @Test func factoriesDescribeTheirBehaviour() throws {
        #expect(RetryPolicy.default.maximumAttempts == 3)
        #expect(RetryPolicy.none.maximumAttempts == 1)
        let custom = try RetryPolicy.exponential(
            maximumAttempts: 5, base: .milliseconds(100), cap: .seconds(2), jitter: .none)
        #expect(custom.maximumAttempts == 5)
        #expect(custom.backoff.delay(beforeRetry: 2, previous: nil, random: .system) == .milliseconds(200))
    }
}

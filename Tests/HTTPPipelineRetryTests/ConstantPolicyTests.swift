import HTTPPipelineRetry
import Testing

/// The configurations written as constants never throw: in range they equal what the checked
/// initialisers build, out of range they are brought into range.
@Suite struct ConstantPolicyTests {
    @Test("The backoff constants equal what the checked initialiser builds from the same numbers")
    func backoffConstantsEqualTheCheckedInitialiser() throws {
        #expect(Backoff.immediate == (try Backoff(base: .zero, cap: .zero, jitter: .none)))
        #expect(Backoff.constant(.seconds(1)) == (try Backoff(base: .seconds(1), cap: .seconds(1), jitter: .none)))
        #expect(Backoff.exponential() == .standard)
        #expect(
            Backoff.exponential(base: .milliseconds(100), multiplier: 3, cap: .seconds(2), jitter: .decorrelated)
                == (try Backoff(base: .milliseconds(100), multiplier: 3, cap: .seconds(2), jitter: .decorrelated)))
    }

    @Test("An immediate backoff never waits and a constant one always waits the same")
    func immediateAndConstantBackoffsWaitAsNamed() {
        let retries = [1, 2, 5, Int.max]
        #expect(
            retries.map { Backoff.immediate.delay(beforeRetry: $0, previous: nil, random: .system) }.allSatisfy {
                $0 == .zero
            })
        let constant = Backoff.constant(.milliseconds(250))
        #expect(
            retries.map { constant.delay(beforeRetry: $0, previous: .seconds(9), random: .system) }.allSatisfy {
                $0 == .milliseconds(250)
            })
    }

    @Test(
        "Out-of-range numbers given to the backoff constants are brought into range, not refused",
        arguments: [
            (Backoff.constant(.seconds(-1)), Backoff.immediate),
            (Backoff.constant(.seconds(200_000)), Backoff.constant(.seconds(86_400))),
            (Backoff.exponential(base: .seconds(-1), cap: .seconds(-5), jitter: .none), Backoff.immediate),
            (
                Backoff.exponential(base: .seconds(2), cap: .seconds(1)),
                Backoff.exponential(base: .seconds(2), cap: .seconds(2))
            ),
            (
                Backoff.exponential(base: .seconds(1), cap: .seconds(90_000)),
                Backoff.exponential(base: .seconds(1), cap: .seconds(86_400))
            ),
        ])
    func backoffConstantsClamp(given: Backoff, expected: Backoff) {
        #expect(given == expected)
    }

    @Test(
        "Out-of-range multipliers are brought into 1...100",
        arguments: [(0.5, 1.0), (-3, 1), (.nan, 1), (1_000, 100), (.infinity, 100), (7, 7)])
    func backoffMultipliersClamp(given: Double, expected: Double) {
        #expect(Backoff.exponential(multiplier: given).multiplier == expected)
    }

    @Test("attempts(_:) keeps the default rules with the given count, backoff and deadline")
    func attemptsKeepsTheDefaultRules() {
        let policy = RetryPolicy.attempts(4, backoff: .immediate, deadline: .seconds(5))
        let standard = RetryPolicy.default
        #expect(policy.maximumAttempts == 4)
        #expect(policy.backoff == .immediate)
        #expect(policy.deadline == .seconds(5))
        #expect(policy.maximumDelay == .zero)
        #expect(policy.retryableStatuses == standard.retryableStatuses)
        #expect(policy.retryableErrors == standard.retryableErrors)
        #expect(policy.idempotentMethods == standard.idempotentMethods)
        #expect(policy.retryAfterStatuses == standard.retryAfterStatuses)
        #expect(policy.addsIdempotencyKey == standard.addsIdempotencyKey)
        let three = RetryPolicy.attempts(3)
        #expect(three.maximumAttempts == standard.maximumAttempts)
        #expect(three.backoff == standard.backoff)
        #expect(three.deadline == standard.deadline)
        #expect(three.maximumDelay == standard.maximumDelay)
    }

    @Test(
        "Attempt counts outside 1...20 are brought into range, not refused",
        arguments: [(0, 1), (-1, 1), (Int.min, 1), (1, 1), (20, 20), (21, 20), (Int.max, 20)])
    func attemptCountsClamp(given: Int, expected: Int) {
        #expect(RetryPolicy.attempts(given).maximumAttempts == expected)
    }

    @Test("A deadline of zero or less becomes a nanosecond, one over a day becomes a day")
    func deadlinesClamp() {
        #expect(RetryPolicy.attempts(3, deadline: .zero).deadline == .nanoseconds(1))
        #expect(RetryPolicy.attempts(3, deadline: .seconds(-5)).deadline == .nanoseconds(1))
        #expect(RetryPolicy.attempts(3, deadline: .seconds(100_000)).deadline == .seconds(86_400))
    }
}

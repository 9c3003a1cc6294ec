import HTTPPipelineTesting
import Testing

@Suite struct ManualClockTests {
    @Test func sleeperWakesOnlyWhenTheClockIsAdvancedPastItsDeadline() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        #expect(clock.pendingDeadlines.count == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.pendingDeadlines.isEmpty)
        #expect(clock.now == .init(offset: .seconds(5)))
    }

    @Test func sleepWithAPastDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(10))
        try await clock.sleep(until: .init(offset: .seconds(3)))
        #expect(clock.sleepCount == 1)
    }

    @Test func advancingWakesEverySleeperDueAndLeavesTheRest() async throws {
        let clock = ManualClock()
        let early = Task { try await clock.sleep(for: .seconds(1)) }
        let late = Task { try await clock.sleep(for: .seconds(10)) }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        try await early.value
        #expect(clock.pendingDeadlines == [.init(offset: .seconds(10))])
        late.cancel()
        await #expect(throws: CancellationError.self) { try await late.value }
    }

    @Test func cancelledSleeperThrowsAtOnceAndIsForgotten() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test func sleepStartedInAnAlreadyCancelledTaskThrows() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test func instantsMeasureDurationsBetweenThem() {
        let start = ManualClock.Instant(offset: .seconds(2))
        #expect(start.advanced(by: .milliseconds(500)) == .init(offset: .milliseconds(2500)))
        #expect(start.duration(to: .init(offset: .seconds(5))) == .seconds(3))
        #expect(ManualClock().minimumResolution == .zero)
    }
}

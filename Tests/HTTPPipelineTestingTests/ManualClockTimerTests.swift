import HTTPPipeline
import HTTPPipelineTesting
import Testing

/// `ManualClock`'s timers (what timeouts arm), kept apart from its sleepers.
@Suite struct ManualClockTimerTests {
    @Test func aTimerFiresWhenTheClockReachesItAndIsNotASleeper() async throws {
        let clock = ManualClock()
        let fired = Locked<[String]>([])
        _ = clock.scheduleTimer(after: .seconds(3)) { fired.withLock { $0.append("3 s") } }
        _ = clock.scheduleTimer(after: .seconds(1)) { fired.withLock { $0.append("1 s") } }
        await clock.waitForTimers(2)
        #expect(clock.pendingTimers == [.init(offset: .seconds(1)), .init(offset: .seconds(3))])
        #expect(clock.pendingDeadlines.isEmpty, "timers are not sleepers")
        #expect(clock.sleepCount == 0)
        clock.advance(by: .seconds(2))
        #expect(fired.value == ["1 s"])
        clock.advance(by: .seconds(5))
        #expect(fired.value == ["1 s", "3 s"], "earliest first")
        #expect(clock.pendingTimers.isEmpty)
    }

    @Test func aCancelledTimerNeverFiresAndATimerDueNowFiresAtOnce() {
        let clock = ManualClock()
        let fired = Locked(0)
        let id = clock.scheduleTimer(after: .seconds(1)) { fired.withLock { $0 += 1 } }
        clock.cancelTimer(id)
        clock.advance(by: .seconds(2))
        #expect(fired.value == 0)
        _ = clock.scheduleTimer(after: .zero) { fired.withLock { $0 += 1 } }
        #expect(fired.value == 1)
        #expect(clock.pendingTimers.isEmpty)
    }

    @Test func aSleeperAndATimerDueAtOneInstantWakeTheSleeperFirst() async throws {
        let clock = ManualClock()
        let order = Locked<[String]>([])
        let sleeper = Task {
            try await clock.sleep(for: .seconds(1))
            order.withLock { $0.append("sleeper") }
        }
        await clock.waitForSleepers(1)
        _ = clock.scheduleTimer(after: .seconds(1)) { order.withLock { $0.append("timer") } }
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(order.value.contains("timer") && order.value.contains("sleeper"))
    }

    @Test func runMovesTheClockToEachDeadlineInTurnUntilTheOperationEnds() async throws {
        let clock = ManualClock()
        let result = await clock.run {
            try await clock.sleep(for: .seconds(2))
            try await clock.sleep(for: .seconds(3))
            return clock.now
        }
        #expect(try result.get() == .init(offset: .seconds(5)))
    }
}

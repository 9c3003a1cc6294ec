import Foundation
import HTTPPipeline
import HTTPPipelineConcurrencyLimit
import HTTPPipelineTesting
import Testing

/// Grants, cancellations and queue timeouts racing one another: whatever wins for each waiter,
/// every slot taken is given back exactly once.
@Suite struct ConcurrencyLimitRaceTests {
    @Test func cancellationsTimeoutsAndGrantsRacingLeaveNoSlotTakenAndNeverExceedTheLimit() async throws {
        let clock = ManualClock()
        let limiter = ConcurrencyLimitMiddleware(
            limit: 4, maximumQueueLength: 150, queueTimeout: .milliseconds(30), clock: clock)
        let counting = CountingTransport(
            base: ScriptedTransport(clock: clock) { _ in .ok().delayed(by: .milliseconds(5)) })
        let pipeline = Pipeline(transport: counting) { limiter }
        let calls = (0..<300).map { index in
            Task { try await pipeline.send(HTTPRequest(url: url("\(index)"))).status }
        }
        let finished = Locked(false)
        // Time moves on, a millisecond at a time, until every call has ended.
        let ticker = Task {
            while !finished.value {
                clock.advance(by: .milliseconds(1))
                await Task.yield()
            }
        }
        for (index, call) in calls.enumerated() where index % 3 == 0 { call.cancel() }
        var outcomes: [String: Int] = [:]
        for call in calls {
            let outcome: String
            switch await call.result {
            case .success: outcome = "answered"
            case .failure(let error as ConcurrencyLimitError):
                outcome = error.reason == .queueFull ? "full" : "timed out"
            case .failure(is CancellationError): outcome = "cancelled"
            case .failure(let error): outcome = "\(error)"
            }
            outcomes[outcome, default: 0] += 1
        }
        finished.withLock { $0 = true }
        await ticker.value
        #expect(outcomes.values.reduce(0, +) == 300, "\(outcomes)")
        #expect((outcomes["answered"] ?? 0) > 0, "\(outcomes)")
        #expect(counting.maximumInFlight <= 4)
        #expect(limiter.inFlightCount == 0, "every slot given back once: \(outcomes)")
        #expect(limiter.queuedCount == 0)
        #expect(clock.pendingTimers.isEmpty, "no queue timer left armed")
    }
}

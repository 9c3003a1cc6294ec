import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineTimeout
import TestSupport
import Testing

/// A deadline cut without a race, with another deadline below it.
@Suite struct NestedDeadlineCutTests {
    static let url = URL(string: "https://api.example/a") ?? URL(fileURLWithPath: "/")

    @Test(arguments: [false, true])
    func anOuterDeadlineStillEndsTheCallWhenAnInnerPipelineSetsALaterDeadlineOnAnotherClock(raced: Bool) async throws {
        let clock = ManualClock()
        let hanging = DeadlineCutTests.KeepingTransport(hangs: true)
        // A shared inner pipeline with a generous deadline of its own, on the default clock.
        let inner = Pipeline(transport: hanging) { TimeoutMiddleware.deadline(.seconds(3_600)) }
        let client = Pipeline(transport: inner) {
            TimeoutMiddleware.deadline(.seconds(60), clock: clock)
            if raced { DeadlineCutTests.Stamp() }
        }
        #expect(keepsDeadline(client) == !raced)
        let call = Task { try await client.send(HTTPRequest(url: Self.url)) }
        #expect(await eventually { clock.pendingTimers.count == 1 })
        #expect(await eventually { hanging.seen.value.count == 1 })

        clock.advance(by: .seconds(60))

        let ended = Locked(false)
        let watcher = Task {
            _ = try? await call.value
            ended.withLock { $0 = true }
        }
        #expect(await eventually(within: .seconds(3)) { ended.value }, "the outer deadline passed (raced: \(raced))")
        call.cancel()
        _ = await watcher.value
    }

    @Test func anOuterDeadlineEndsTheCallWhenAnInnerPipelineSetsAnEarlierDeadlineOnAnotherClock() async throws {
        let outerClock = ManualClock()
        let innerClock = ManualClock()
        let hanging = DeadlineCutTests.KeepingTransport(hangs: true)
        let inner = Pipeline(transport: hanging) { TimeoutMiddleware.deadline(.seconds(30), clock: innerClock) }
        let client = Pipeline(transport: inner) { TimeoutMiddleware.deadline(.seconds(60), clock: outerClock) }
        #expect(keepsDeadline(client))
        let call = Task { try await client.send(HTTPRequest(url: Self.url)) }
        #expect(await eventually { hanging.seen.value.count == 1 })

        outerClock.advance(by: .seconds(60))  // the inner clock never moves

        let outcome = Locked<Result<HTTPResponse, any Error>?>(nil)
        let watcher = Task {
            let result: Result<HTTPResponse, any Error>
            do { result = .success(try await call.value) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
        }
        #expect(await eventually(within: .seconds(3)) { outcome.value != nil }, "the outer deadline passed")
        call.cancel()
        _ = await watcher.value
        #expect(throws: HTTPTimeoutError.self) { try outcome.value?.get() }
    }
}

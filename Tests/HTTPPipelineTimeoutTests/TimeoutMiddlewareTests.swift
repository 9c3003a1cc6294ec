import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineTimeout
import TestSupport
import Testing

@Suite("TimeoutMiddleware: deadlines and per-attempt timeouts on a manual clock")
struct TimeoutMiddlewareTests {
    @Test("A call that answers in time passes through, and no timer is left armed", arguments: [true, false])
    func aCallThatAnswersInTimePassesThrough(total: Bool) async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok("fast").delayed(by: .seconds(1))], clock: clock)
        let timeout =
            total ? TimeoutMiddleware.deadline(.seconds(10), clock: clock) : .perAttempt(.seconds(10), clock: clock)
        let pipeline = Pipeline(transport: transport) { timeout }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: timeoutURL)) }
        #expect(result.status == 200)
        #expect(clock.pendingTimers.isEmpty, "the timer is disarmed when the answer comes")
    }

    @Test("A call that answers without suspending arms no timer at all")
    func anImmediateAnswerArmsNoTimer() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok("at once")], clock: clock)
        let pipeline = Pipeline(transport: transport) { TimeoutMiddleware.deadline(.seconds(2), clock: clock) }
        let response = try await pipeline.send(HTTPRequest(url: timeoutURL))
        #expect(response.status == 200)
        #expect(clock.pendingTimers.isEmpty)
        #expect(clock.sleepCount == 0)
    }

    @Test("A per-attempt timeout cuts a slow attempt, cancels it, and throws the attempt error")
    func aPerAttemptTimeoutCutsASlowAttempt() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok("slow").delayed(by: .seconds(5))], clock: clock)
        let pipeline = Pipeline(transport: transport) { TimeoutMiddleware.perAttempt(.seconds(1), clock: clock) }
        let call = Task { try await pipeline.send(HTTPRequest(url: timeoutURL)) }
        await clock.waitForSleepers(1)
        await clock.waitForTimers(1)
        #expect(clock.pendingTimers == [ManualClock.Instant(offset: .seconds(1))])
        clock.advance(by: .seconds(1))
        let result = await call.result
        #expect(result.timeout == HTTPTimeoutError(.attempt, after: .seconds(1)))
        #expect(clock.pendingDeadlines.isEmpty, "the transport's wait was cancelled")
        #expect(clock.pendingTimers.isEmpty)
    }

    @Test("A deadline cuts a slow call and throws the total error, which says which limit fired")
    func aDeadlineCutsASlowCall() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok("slow").delayed(by: .seconds(5))], clock: clock)
        let pipeline = Pipeline(transport: transport) { TimeoutMiddleware.deadline(.seconds(2), clock: clock) }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: timeoutURL)) }
        let error = try #require(result.timeout)
        #expect(error == HTTPTimeoutError(.total, after: .seconds(2)))
        #expect(!error.isRetryable)
        #expect(error.description == "the call's 2 s deadline passed")
        #expect(HTTPTimeoutError(.attempt, after: .milliseconds(250)).description.contains("250 ms timeout"))
        #expect(clock.now.offset < .seconds(5), "cut at 2 s, before the answer at 5 s")
    }

    @Test("A deadline is on the context for the layers inside, as the time remaining")
    func theDeadlineIsOnTheContext() async throws {
        let clock = ManualClock()
        let seen = Locked<[Duration]>([])
        let transport = ScriptedTransport(clock: clock) { request in
            seen.withLock { $0.append(request.context.deadline?.remaining ?? .zero) }
            return .ok()
        }
        clock.advance(by: .seconds(100))
        let pipeline = Pipeline(transport: transport) { TimeoutMiddleware.deadline(.seconds(10), clock: clock) }
        _ = try await pipeline.send(HTTPRequest(url: timeoutURL))
        #expect(seen.value == [.seconds(10)])
        let perAttempt = Pipeline(transport: transport) { TimeoutMiddleware.perAttempt(.seconds(3), clock: clock) }
        _ = try await perAttempt.send(HTTPRequest(url: timeoutURL))
        #expect(seen.value == [.seconds(10), .zero], "a per-attempt timeout sets no deadline")
    }

    @Test(
        "A nested deadline only tightens the one outside it, whichever is listed first",
        arguments: [(Duration.seconds(2), Duration.seconds(10)), (.seconds(10), .seconds(2))])
    func aNestedDeadlineOnlyTightens(outer: Duration, inner: Duration) async throws {
        let clock = ManualClock()
        let seen = Locked<[Duration]>([])
        let transport = ScriptedTransport(clock: clock) { request in
            seen.withLock { $0.append(request.context.deadline?.remaining ?? .zero) }
            return ScriptedTransport.Reply.ok().delayed(by: .seconds(30))
        }
        let pipeline = Pipeline(transport: transport) {
            TimeoutMiddleware.deadline(outer, clock: clock)
            TimeoutMiddleware.deadline(inner, clock: clock)
        }
        let call = Task { try await pipeline.send(HTTPRequest(url: timeoutURL)) }
        await clock.waitForSleepers(1)
        await clock.waitForTimers(2)
        #expect(clock.pendingTimers.first == ManualClock.Instant(offset: .seconds(2)), "the earlier deadline, inside")
        clock.advance(by: .seconds(2))
        let result = await call.result
        #expect(seen.value == [.seconds(2)])
        #expect(result.timeout?.limit == .total)
        #expect(result.timeout?.duration == .seconds(2))
        #expect(clock.now.offset == .seconds(2))
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test("A call's context overrides the limit: another limit, or none")
    func theContextOverridesTheLimit() async throws {
        for total in [true, false] {
            let clock = ManualClock()
            let transport = ScriptedTransport(clock: clock) { _ in ScriptedTransport.Reply.ok().delayed(by: .seconds(5))
            }
            let timeout =
                total ? TimeoutMiddleware.deadline(.seconds(2), clock: clock) : .perAttempt(.seconds(2), clock: clock)
            let pipeline = Pipeline(transport: transport) { timeout }
            var longer = HTTPRequest(url: timeoutURL)
            var shorter = HTTPRequest(url: timeoutURL)
            var none = HTTPRequest(url: timeoutURL)
            if total {
                longer.context.totalTimeout = .limit(.seconds(8))
                shorter.context.totalTimeout = .limit(.seconds(1))
                none.context.totalTimeout = .off
            } else {
                longer.context.attemptTimeout = .limit(.seconds(8))
                shorter.context.attemptTimeout = .limit(.seconds(1))
                none.context.attemptTimeout = .off
            }
            let (longerRequest, shorterRequest, noneRequest) = (longer, shorter, none)
            #expect(await clock.run { try await pipeline.send(longerRequest) }.status == 200, "total: \(total)")
            let cut = await clock.run { try await pipeline.send(shorterRequest) }
            #expect(cut.timeout?.duration == .seconds(1), "total: \(total)")
            #expect(await clock.run { try await pipeline.send(noneRequest) }.status == 200, "total: \(total)")
        }
    }

    @Test("A cancelled caller gets CancellationError once the attempt has ended, and no timer stays armed")
    func aCancelledCallerGetsCancellationError() async throws {
        for total in [true, false] {
            let clock = ManualClock()
            let transport = ScriptedTransport([.ok("slow").delayed(by: .seconds(30))], clock: clock)
            let timeout =
                total ? TimeoutMiddleware.deadline(.seconds(10), clock: clock) : .perAttempt(.seconds(10), clock: clock)
            let pipeline = Pipeline(transport: transport) { timeout }
            let call = Task { try await pipeline.send(HTTPRequest(url: timeoutURL)) }
            await clock.waitForSleepers(1)
            await clock.waitForTimers(1)
            call.cancel()
            let result = await call.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(clock.pendingTimers.isEmpty)
            #expect(clock.pendingDeadlines.isEmpty, "the transport's wait ended with the call")
        }
    }

    @Test("A timer that fires as the response arrives gives exactly one outcome, either one")
    func aTimerFiringAsTheResponseArrivesGivesOneOutcome() async throws {
        for _ in 0..<50 {
            let clock = ManualClock()
            let transport = ScriptedTransport([.ok("just in time").delayed(by: .seconds(1))], clock: clock)
            let pipeline = Pipeline(transport: transport) { TimeoutMiddleware.perAttempt(.seconds(1), clock: clock) }
            let call = Task { try await pipeline.send(HTTPRequest(url: timeoutURL)) }
            await clock.waitForSleepers(1)
            await clock.waitForTimers(1)
            clock.advance(by: .seconds(1))  // wakes the transport and fires the timer at one instant
            switch await call.result {
            case .success(let response):
                #expect(response.status == 200)
            case .failure(let error):
                #expect(error as? HTTPTimeoutError == HTTPTimeoutError(.attempt, after: .seconds(1)))
            }
            #expect(transport.requests.count == 1)
        }
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineHedging
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite("HedgingMiddleware: hedges on a manual clock")
struct HedgingMiddlewareTests {
    @Test("A call that answers within the delay is sent once, and no timer is left armed")
    func aCallThatAnswersWithinTheDelayIsSentOnce() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(clock: clock) { _ in .ok("fast").delayed(by: .milliseconds(90)) }
        let pipeline = Pipeline(transport: transport) { hedging(after: .milliseconds(100), clock: clock) }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(await result.text() == "fast")
        #expect(transport.requests.count == 1)
        #expect(clock.pendingTimers.isEmpty, "the hedge timer is disarmed when the answer comes")
    }

    @Test("After the delay a hedge is sent; the first answer wins, and the slow attempt is cancelled and awaited")
    func aHedgeAfterTheDelayWinsAndTheLoserIsCancelled() async throws {
        let clock = ManualClock()
        let transport = EndRecordingTransport(
            byAttempt(clock) { $0 == 1 ? .ok("slow").delayed(by: .seconds(10)) : .ok("hedge").delayed(by: .seconds(1)) }
        )
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(2), clock: clock) }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(await result.text() == "hedge")
        #expect(clock.now.offset == .seconds(3), "the hedge starts at 2 s and answers at 3 s")
        #expect(
            transport.ends == [AttemptEnd(number: 2, outcome: "200"), AttemptEnd(number: 1, outcome: "cancelled")],
            "the loser ended, cancelled, before the call returned")
        #expect(clock.pendingDeadlines.isEmpty && clock.pendingTimers.isEmpty)
    }

    @Test("No more attempts are started than the policy's maximum")
    func noMoreAttemptsThanTheMaximum() async throws {
        let clock = ManualClock()
        let transport = EndRecordingTransport(byAttempt(clock) { .ok("attempt \($0)").delayed(by: .seconds(10)) })
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), attempts: 3, clock: clock) }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(await result.text() == "attempt 1", "all stall alike: the first started answers first")
        #expect(transport.ends.count == 3, "three attempts: \(transport.ends)")
        #expect(transport.ends.first == AttemptEnd(number: 1, outcome: "200"))
        // The two losers are cancelled together and end in either order.
        #expect(Set(transport.ends.dropFirst().compactMap(\.number)) == [2, 3])
        #expect(transport.ends.dropFirst().allSatisfy { $0.outcome == "cancelled" })
    }

    @Test("A caller cancelled just as the hedge delay passes starts no hedge")
    func aCallerCancelledAsTheDelayPassesStartsNoHedge() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(clock: clock) { _ in .ok().delayed(by: .seconds(60)) }
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        let call = Task { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        await clock.waitForSleepers(1)
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(1))
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(transport.requests.count == 1, "the timer fired, but the caller had gone")
    }

    @Test("Cancelling the caller cancels every attempt in flight, and the call ends with CancellationError")
    func cancellingTheCallerCancelsEveryAttempt() async throws {
        let clock = ManualClock()
        let transport = EndRecordingTransport(byAttempt(clock) { _ in .ok().delayed(by: .seconds(60)) })
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        let call = Task { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        await clock.waitForSleepers(1)
        await clock.waitForTimers(1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(2)
        call.cancel()
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(
            transport.ends.count == 2 && transport.ends.allSatisfy { $0.outcome == "cancelled" }, "\(transport.ends)")
        #expect(clock.pendingDeadlines.isEmpty && clock.pendingTimers.isEmpty)
    }

    @Test("A 5xx or a transient error does not win while another attempt is in flight")
    func anUnacceptableAnswerWaitsForTheOthers() async throws {
        let clock = ManualClock()
        let transport = byAttempt(clock) {
            $0 == 1 ? .ok("slow but good").delayed(by: .seconds(5)) : .status(503).delayed(by: .seconds(1))
        }
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(await result.text() == "slow but good")
        #expect(clock.now.offset == .seconds(5))
    }

    @Test("When every attempt fails, the call ends with the last response, or the last error if none came")
    func whenEveryAttemptFailsTheLastResponseIsReturned() async throws {
        let clock = ManualClock()
        let transport = byAttempt(clock) {
            $0 == 1 ? .status(502).delayed(by: .seconds(3)) : .failure(URLError(.timedOut), delay: .seconds(2))
        }
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(result.status == 502, "a response beats an error")

        let errors = byAttempt(clock) {
            .failure(URLError($0 == 1 ? .networkConnectionLost : .timedOut), delay: .seconds($0 == 1 ? 5 : 1))
        }
        let failing = Pipeline(transport: errors) { hedging(after: .seconds(1), clock: clock) }
        let thrown = await clock.run { try await failing.send(HTTPRequest(url: hedgeURL)) }
        #expect(throws: URLError(.networkConnectionLost)) { try thrown.get() }
    }

    @Test("A fast failure ends the call at once: hedging answers slowness, retry answers failure")
    func aFastFailureIsNotHedged() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.status(503)], clock: clock)
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(result.status == 503)
        #expect(transport.requests.count == 1)
        #expect(clock.pendingTimers.isEmpty)
    }

    @Test("A 4xx and a non-transient error win: another copy would answer the same")
    func aClientErrorWins() async throws {
        let clock = ManualClock()
        let transport = byAttempt(clock) { $0 == 1 ? .ok().delayed(by: .seconds(9)) : .status(404) }
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(result.status == 404)
        let policy = HedgingPolicy.after(.seconds(1))
        #expect(policy.accepts(.failure(URLError(.badURL))))
        #expect(!policy.accepts(.failure(URLError(.timedOut))))
        #expect(!policy.accepts(.failure(HTTPTimeoutError(.attempt, after: .seconds(1)))))
    }

    @Test("Another transport's transient failure (an HTTPTransientFailure) loses, and the slower attempt wins")
    func anotherTransportsTransientFailureLoses() async throws {
        struct SocketReset: Error, HTTPTransientFailure {
            var isTransient: Bool { true }
        }
        struct BadCertificate: Error, HTTPTransientFailure {
            var isTransient: Bool { false }
        }
        let clock = ManualClock()
        let transport = byAttempt(clock) { $0 == 1 ? .ok("first").delayed(by: .seconds(2)) : .failure(SocketReset()) }
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        let result = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(await result.text() == "first", "the hedge's reset did not end the call")
        let policy = HedgingPolicy.after(.seconds(1))
        #expect(!policy.accepts(.failure(SocketReset())))
        #expect(policy.accepts(.failure(BadCertificate())))
    }

    @Test("A streamed winner's body reaches the caller whole")
    func aStreamedWinnersBodyArrivesWhole() async throws {
        let clock = ManualClock()
        let chunks = (1...5).map { Data("chunk \($0);".utf8) }
        let transport = byAttempt(clock) {
            $0 == 1 ? .ok("slow").delayed(by: .seconds(30)) : .streamed(chunks: chunks, every: .milliseconds(400))
        }
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        let result = await clock.run {
            let response = try await pipeline.send(HTTPRequest(url: hedgeURL))
            return try await response.body.collect(upTo: 1 << 20)
        }
        #expect(try result.get() == chunks.reduce(Data(), +))
        #expect(clock.pendingDeadlines.isEmpty, "the loser's wait was cancelled")
    }

    @Test("Each attempt carries its number on the context for the layers inside")
    func eachAttemptCarriesItsNumber() async throws {
        let clock = ManualClock()
        let transport = byAttempt(clock) { $0 == 1 ? .ok().delayed(by: .seconds(5)) : .ok().delayed(by: .seconds(1)) }
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        _ = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(transport.requests.map(\.context.hedgeAttempt) == [1, 2])
    }

    @Test("It keeps the middleware contract, calling next at most once per attempt")
    func itKeepsTheMiddlewareContract() async throws {
        // The manual clock is never moved: each exchange is one attempt, and the hedge's timer
        // is armed and disarmed without firing.
        let middleware = hedging(after: .seconds(1), clock: ManualClock())
        let report = await MiddlewareContract(maximumCallsToNext: 2).check(middleware)
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test("Policies out of range are refused when built, and the never-failing factory clamps")
    func policiesAreChecked() throws {
        #expect(throws: HedgingPolicyError.invalidAttempts(0)) {
            try HedgingPolicy(delay: .seconds(1), maximumAttempts: 0)
        }
        #expect(throws: HedgingPolicyError.self) { try HedgingPolicy(delay: .zero) }
        #expect(throws: HedgingPolicyError.self) { try HedgingBudget(ratio: 2) }
        #expect(HedgingPolicy.after(.zero, maximumAttempts: 99).maximumAttempts == HedgingPolicy.maximumAttemptLimit)
        #expect(HedgingPolicy.after(.zero).delay == .milliseconds(1))
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineHedging
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite("HedgingMiddleware: which calls are hedged")
struct HedgingEligibilityTests {
    /// A transport whose first attempt stalls 10 s and every other answers after 1 s.
    static func stallingFirst(_ clock: ManualClock) -> ScriptedTransport {
        ScriptedTransport(clock: clock) { request in
            request.context.hedgeAttempt ?? 1 == 1
                ? .ok("first").delayed(by: .seconds(10)) : .ok().delayed(by: .seconds(1))
        }
    }

    @Test("A POST is sent once, unless its policy opts other methods in", arguments: [false, true])
    func aPostIsSentOnceUnlessOptedIn(optedIn: Bool) async throws {
        let clock = ManualClock()
        let transport = Self.stallingFirst(clock)
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        var request = HTTPRequest(method: .post, url: hedgeURL, body: HTTPBody(Data("{}".utf8)))
        if optedIn {
            var policy = HedgingPolicy.after(.seconds(1))
            policy.hedgesNonIdempotentMethods = true
            request.context.hedging = .policy(policy)
        }
        let sent = request
        let result = await clock.run { try await pipeline.send(sent) }
        #expect(result.status == 200)
        #expect(transport.requests.count == (optedIn ? 2 : 1))
        #expect(transport.requests.allSatisfy { $0.body?.bufferedData == Data("{}".utf8) })
    }

    @Test("A single-pass body is sent exactly once, even when the policy opts its method in")
    func aSinglePassBodyIsSentOnce() async throws {
        let clock = ManualClock()
        let transport = Self.stallingFirst(clock)
        var policy = HedgingPolicy.after(.seconds(1))
        policy.hedgesNonIdempotentMethods = true
        let pipeline = Pipeline(transport: transport) { HedgingMiddleware(policy: policy, budget: nil, clock: clock) }
        let stream = AsyncStream<Data> { continuation in
            continuation.yield(Data("once".utf8))
            continuation.finish()
        }
        let request = HTTPRequest(method: .put, url: hedgeURL, body: HTTPBody(stream: stream))
        let result = await clock.run { try await pipeline.send(request) }
        #expect(await result.text() == "first", "no hedge: the stalled attempt answers")
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.context.hedgeAttempt == nil, "passed through, not raced")
    }

    @Test("A call whose context turns hedging off is passed through and sent once")
    func theContextTurnsHedgingOff() async throws {
        let clock = ManualClock()
        let transport = Self.stallingFirst(clock)
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock) }
        var request = HTTPRequest(url: hedgeURL)
        request.context.hedging = .off
        let sent = request
        let result = await clock.run { try await pipeline.send(sent) }
        #expect(await result.text() == "first")
        #expect(transport.requests.count == 1)
    }

    @Test("When the budget is spent a slow call is not hedged, and waits for its first attempt")
    func aSpentBudgetStopsHedging() async throws {
        let clock = ManualClock()
        let budget = try HedgingBudget(ratio: 0, minimumHedges: 1, clock: clock)
        let transport = EndRecordingTransport(Self.stallingFirst(clock))
        let pipeline = Pipeline(transport: transport) { hedging(after: .seconds(1), clock: clock, budget: budget) }
        let first = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(first.status == 200)
        #expect(transport.ends.count == 2, "the one hedge the budget allows")
        let second = await clock.run { try await pipeline.send(HTTPRequest(url: hedgeURL)) }
        #expect(await second.text() == "first")
        #expect(transport.ends.count == 3, "no hedge: the budget is spent")
        #expect(clock.pendingTimers.isEmpty)
    }

    @Test("The default budget lets hedges add at most a tenth of the calls")
    func theDefaultBudgetAllowsATenth() async throws {
        let clock = ManualClock()
        let counter = Locked(0)
        let transport = ScriptedTransport(clock: clock) { _ in
            counter.withLock { $0 += 1 }
            return .ok().delayed(by: .seconds(2))
        }
        let pipeline = Pipeline(transport: transport) {
            HedgingMiddleware(policy: .after(.seconds(1)), clock: clock)
        }
        let calls = 40
        let result = await clock.run {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<calls { group.addTask { try await pipeline.send(HTTPRequest(url: hedgeURL)).status.code } }
                return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
            }
        }
        #expect(try result.get() == calls)
        #expect(counter.value == calls + calls / 10, "every call is slow, and 4 of 40 are hedged")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineConcurrencyLimit
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite struct ConcurrencyLimitMiddlewareTests {
    @Test func twoHundredConcurrentCallersNeverHaveMoreThanTheLimitInFlightAtTheTransport() async throws {
        let limiter = ConcurrencyLimitMiddleware(limit: 8)
        let transport = ScriptedTransport { _ in .ok("hi") }
        let counting = CountingTransport(base: transport)
        let pipeline = Pipeline(transport: counting) { limiter }
        let statuses = await withTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask { (try? await pipeline.send(HTTPRequest(url: url("\(index)"))).status.code) ?? 0 }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 200 && statuses.allSatisfy { $0 == 200 })
        #expect(counting.maximumInFlight <= 8)
        #expect(counting.maximumInFlight >= 1)
        #expect(transport.requests.count == 200)
        #expect(limiter.inFlightCount == 0 && limiter.queuedCount == 0)
    }

    @Test func waitingCallsGetTheirSlotsFirstInFirstOut() async throws {
        let limiter = ConcurrencyLimitMiddleware(limit: 1)
        let gate = GatedTransport()
        let pipeline = Pipeline(transport: gate) { limiter }
        var calls: [Task<Int, any Error>] = []
        for index in 0..<5 {
            calls.append(Task { try await pipeline.send(HTTPRequest(url: url("\(index)"))).status.code })
            await eventually(within: .seconds(5)) { gate.heldCount + limiter.queuedCount == index + 1 }
        }
        for index in 0..<5 {
            await eventually(within: .seconds(5)) { gate.heldCount == 1 }
            #expect(gate.arrived.count == index + 1)
            gate.openNext()
        }
        for call in calls { _ = try await call.value }
        #expect(gate.arrived == ["0", "1", "2", "3", "4"])
        #expect(gate.maximumInFlight == 1)
    }

    @Test func aCallFindingTheQueueFullIsTurnedAwayWithTheLimitAndQueueLengthAndNothingSent() async throws {
        let limiter = ConcurrencyLimitMiddleware(limit: 1, maximumQueueLength: 2)
        let gate = GatedTransport()
        let pipeline = Pipeline(transport: gate) { limiter }
        let first = Task { try await pipeline.send(HTTPRequest(url: url("first"))) }
        await eventually(within: .seconds(5)) { gate.heldCount == 1 }
        let queued = (0..<2).map { index in Task { try await pipeline.send(HTTPRequest(url: url("q\(index)"))) } }
        await eventually(within: .seconds(5)) { limiter.queuedCount == 2 }
        let rejected = await Task { try await pipeline.send(HTTPRequest(url: url("late"))) }.result
        #expect(throws: ConcurrencyLimitError(.queueFull, limit: 1, queueLength: 2)) { try rejected.get() }
        #expect(gate.arrived == ["first"])
        gate.openAll()
        _ = try await first.value
        // Whichever queued call reached the queue first gets the slot first: open each as it
        // arrives, then wait for both (awaiting them in creation order hung when q1 came first).
        for _ in queued {
            await eventually(within: .seconds(5)) { gate.heldCount == 1 }
            gate.openAll()
        }
        for call in queued { _ = try await call.value }
        #expect(Set(gate.arrived) == ["first", "q0", "q1"])
    }

    @Test func aCallWaitingLongerThanTheQueueTimeoutOnTheManualClockIsTurnedAway() async throws {
        let clock = ManualClock()
        let limiter = ConcurrencyLimitMiddleware(limit: 1, queueTimeout: .seconds(5), clock: clock)
        let gate = GatedTransport()
        let pipeline = Pipeline(transport: gate) { limiter }
        let first = Task { try await pipeline.send(HTTPRequest(url: url("first"))) }
        await eventually(within: .seconds(5)) { gate.heldCount == 1 }
        let waiting = Task { try await pipeline.send(HTTPRequest(url: url("waiting"))) }
        await clock.waitForTimers(1)
        clock.advance(by: .milliseconds(4_999))
        #expect(limiter.queuedCount == 1, "not before its time")
        clock.advance(by: .milliseconds(1))
        let outcome = await waiting.result
        #expect(throws: ConcurrencyLimitError(.queueTimeout(.seconds(5)), limit: 1, queueLength: 0)) {
            try outcome.get()
        }
        #expect(limiter.queuedCount == 0)
        #expect(clock.pendingTimers.isEmpty)
        gate.openAll()
        _ = try await first.value
        #expect(gate.arrived == ["first"])
        #expect(limiter.inFlightCount == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueueAtOnceAndNoSlotIsGivenBackTwice() async throws {
        let clock = ManualClock()
        let limiter = ConcurrencyLimitMiddleware(limit: 1, queueTimeout: .seconds(60), clock: clock)
        let gate = GatedTransport()
        let pipeline = Pipeline(transport: gate) { limiter }
        let first = Task { try await pipeline.send(HTTPRequest(url: url("first"))) }
        await eventually(within: .seconds(5)) { gate.heldCount == 1 }
        let waiter = Task { try await pipeline.send(HTTPRequest(url: url("cancelled"))) }
        await clock.waitForTimers(1)
        #expect(limiter.queuedCount == 1)
        waiter.cancel()
        let outcome = await waiter.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(limiter.queuedCount == 0, "left at once, not when the queue timeout passed")
        #expect(clock.pendingTimers.isEmpty, "its queue timer is disarmed")
        #expect(limiter.inFlightCount == 1, "the cancelled waiter held no slot and gave none back")
        gate.openAll()
        _ = try await first.value
        #expect(limiter.inFlightCount == 0)
        // Two more calls: with a slot given back twice, both would be let in together.
        let next = (0..<2).map { index in Task { try await pipeline.send(HTTPRequest(url: url("n\(index)"))) } }
        await eventually(within: .seconds(5)) { gate.heldCount == 1 && limiter.queuedCount == 1 }
        #expect(gate.heldCount == 1)
        gate.openNext()
        await eventually(within: .seconds(5)) { gate.heldCount == 1 }
        gate.openNext()
        for call in next { _ = try await call.value }
        #expect(gate.maximumInFlight == 1)
        #expect(!gate.arrived.contains("cancelled"))
        #expect(limiter.inFlightCount == 0)
    }

    @Test func aFailureBelowGivesTheSlotBack() async throws {
        let limiter = ConcurrencyLimitMiddleware(limit: 1)
        let pipeline = Pipeline(transport: ScriptedTransport([.failure(URLError(.timedOut)), .ok()])) { limiter }
        await #expect(throws: URLError.self) { try await pipeline.send(HTTPRequest(url: url("a"))) }
        #expect(limiter.inFlightCount == 0)
        #expect(try await pipeline.send(HTTPRequest(url: url("b"))).status == 200)
    }

    @Test func aPrioritisedCallJumpsTheQueueAndABypassingCallTakesNoSlot() async throws {
        let limiter = ConcurrencyLimitMiddleware(limit: 1)
        let gate = GatedTransport()
        let pipeline = Pipeline(transport: gate) { limiter }
        let first = Task { try await pipeline.send(HTTPRequest(url: url("first"))) }
        await eventually(within: .seconds(5)) { gate.heldCount == 1 }
        let normal = Task { try await pipeline.send(HTTPRequest(url: url("normal"))) }
        await eventually(within: .seconds(5)) { limiter.queuedCount == 1 }
        var urgent = HTTPRequest(url: url("urgent"))
        urgent.context.concurrencyLimit = .priority
        let prioritised = Task { [urgent] in try await pipeline.send(urgent) }
        await eventually(within: .seconds(5)) { limiter.queuedCount == 2 }
        var health = HTTPRequest(url: url("health"))
        health.context.concurrencyLimit = .bypass
        let bypassing = Task { [health] in try await pipeline.send(health) }
        await eventually(within: .seconds(5)) { gate.heldCount == 2 }
        #expect(gate.arrived == ["first", "health"], "the bypassing call went straight through")
        #expect(limiter.inFlightCount == 1 && limiter.queuedCount == 2)
        gate.openAll()
        for call in [first, bypassing] { _ = try await call.value }
        await eventually(within: .seconds(5)) { gate.heldCount == 1 }
        gate.openAll()
        await eventually(within: .seconds(5)) { gate.heldCount == 1 }
        gate.openAll()
        for call in [prioritised, normal] { _ = try await call.value }
        #expect(gate.arrived == ["first", "health", "urgent", "normal"])
    }

    @Test func keepsTheMiddlewareContract() async {
        let limiter = ConcurrencyLimitMiddleware(limit: 2)
        let report = await MiddlewareContract().check { limiter }
        #expect(report.violations.isEmpty, "\(report)")
        #expect(limiter.inFlightCount == 0, "every slot given back")
    }
}

/// Counts requests in flight at `base`, yielding so that concurrent callers interleave.
final class CountingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let counts = Locked((now: 0, maximum: 0))

    init(base: any HTTPTransport) {
        self.base = base
    }

    var maximumInFlight: Int { counts.withLock { $0.maximum } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        counts.withLock { counts in
            counts.now += 1
            counts.maximum = max(counts.maximum, counts.now)
        }
        defer { counts.withLock { $0.now -= 1 } }
        for _ in 0..<3 { await Task.yield() }
        return try await base.send(request)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineCache
import HTTPPipelineCircuitBreaker
import HTTPPipelineConcurrencyLimit
import HTTPPipelineEvents
import HTTPPipelineHedging
import HTTPPipelineTesting
import TestSupport
import Testing

/// Each plugin reports what it decides to the call's observer, and nothing without one.
@Suite struct PluginEventTests {
    static let url = URL(string: "https://api.example/books?token=s3cr3t") ?? URL(fileURLWithPath: "/")

    @Test func theCacheReportsAMissThenAHitThenARevalidation() async throws {
        let events = EventLog()
        let transport = ScriptedTransport([
            .status(200, headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\""], body: Data("one".utf8)),
            .status(304, headers: ["ETag": "\"v1\""]),
        ])
        let client = Pipeline(transport: transport) {
            ObserverMiddleware.call(events)
            CacheMiddleware()
            ObserverMiddleware.attempt()
        }
        _ = try await client.send(HTTPRequest(url: Self.url))
        _ = try await client.send(HTTPRequest(url: Self.url))
        var revalidate = HTTPRequest(url: Self.url)
        revalidate.fields["Cache-Control"] = "no-cache"
        _ = try await client.send(revalidate)

        let mismatch = events.checkOrder([
            "call.started", "attempt.started", "attempt.finished 200", "cache.miss 200", "call.finished 200",
            "call.started", "cache.hit 200", "call.finished 200",
            "call.started", "attempt.started", "attempt.finished 304", "cache.revalidated 200", "call.finished 200",
        ])
        #expect(mismatch == nil, "\(mismatch?.description ?? "")")
    }

    @Test func aCallThatWaitsForASlotReportsItsQueueingAndAdmission() async throws {
        let events = EventLog()
        let gate = AsyncGate()
        let transport = ScriptedTransport { request in
            if request.url.path == "/first" { await gate.wait() }
            return .ok()
        }
        let client = Pipeline(transport: transport) {
            ObserverMiddleware.call(events)
            ConcurrencyLimitMiddleware(limit: 1)
        }
        let base = try #require(URL(string: "https://api.example"))
        let first = Task { try await client.send(HTTPRequest(url: base.appendingPathComponent("first"))) }
        #expect(await eventually { transport.requests.count == 1 })
        let second = Task { try await client.send(HTTPRequest(url: base.appendingPathComponent("second"))) }
        #expect(await eventually { events.lines().contains("limiter.queued") })
        gate.open()
        _ = try await first.value
        _ = try await second.value

        let queued = try #require(events.events.first { $0.kind == .limiterQueued })
        #expect(
            events.lines(of: queued.call) == [
                "call.started", "limiter.queued", "limiter.admitted", "call.finished 200",
            ])
        let admitted = try #require(events.events.first { $0.kind == .limiterAdmitted })
        #expect(admitted.duration != nil)
    }

    @Test func theCallThatOpensTheCircuitReportsTheChangeAndTheProbeThatClosesIt() async throws {
        let clock = ManualClock()
        let events = EventLog()
        let transport = ScriptedTransport([.status(503), .status(503), .status(200)])
        let policy = CircuitBreakerPolicy(minimumThroughput: 2, breakDuration: .seconds(5))
        let client = Pipeline(transport: transport) {
            ObserverMiddleware.call(events)
            CircuitBreakerMiddleware(policy: policy, clock: clock)
        }
        _ = try await client.send(HTTPRequest(url: Self.url))
        _ = try await client.send(HTTPRequest(url: Self.url))
        await #expect(throws: CircuitOpenError.self) { try await client.send(HTTPRequest(url: Self.url)) }
        clock.advance(by: .seconds(5))
        _ = try await client.send(HTTPRequest(url: Self.url))

        let changes = events.lines().filter { $0.hasPrefix("breaker.state") }
        #expect(
            changes == [
                "breaker.state (closed to open)", "breaker.state (open to half-open)",
                "breaker.state (half-open to closed)",
            ])
        let calls = Set(events.events.filter { $0.kind == .breakerStateChanged }.map(\.call))
        #expect(calls.count == 2, "the second call opened it; the fourth probed and closed it")
    }

    @Test func aHedgedCallReportsTheCopyItSentAndTheOneThatWon() async throws {
        let clock = ManualClock()
        let events = EventLog()
        let transport = ScriptedTransport(clock: clock) { request in
            request.context.hedgeAttempt ?? 1 == 1
                ? .ok("first").delayed(by: .seconds(10)) : .ok("second").delayed(by: .seconds(1))
        }
        let client = Pipeline(transport: transport) {
            ObserverMiddleware.call(events)
            HedgingMiddleware(policy: .after(.seconds(1)), budget: nil, clock: clock)
            ObserverMiddleware.attempt()
        }
        let response = await clock.run { try await client.send(HTTPRequest(url: Self.url)) }
        #expect(try await response.get().body.collect(upTo: 100) == Data("second".utf8))

        let lines = events.lines()
        #expect(lines.first == "call.started")
        #expect(lines.last == "call.finished 200")
        #expect(lines.filter { $0 == "attempt.started" }.count == 2, "\(lines)")
        #expect(lines.contains("hedge.sent (copy 2)"))
        #expect(lines.contains("hedge.won (copy 2)"))
        let sent = try #require(events.events.first { $0.kind == .hedgeSent })
        #expect(sent.delay == .seconds(1))
        let finished = events.events.filter { $0.kind == .attemptFinished }
        #expect(finished.count == 2, "the loser ends too, with the cancellation: \(lines)")
    }

    @Test func twoCallsMeetingOneExpiredTokenReportOneRefreshStartedAndOneJoined() async throws {
        let events = EventLog()
        let gate = AsyncGate()
        let tokens = GatedTokens(gate: gate)
        let transport = ScriptedTransport { request in
            request.fields["Authorization"] == "Bearer new" ? .ok() : .status(401)
        }
        let client = Pipeline(transport: transport) {
            ObserverMiddleware.call(events)
            AuthMiddleware(source: tokens, clock: ManualClock())
        }
        let first = Task { try await client.send(HTTPRequest(url: Self.url)) }
        #expect(await eventually { events.lines().contains("auth.refresh.started 401") })
        let second = Task { try await client.send(HTTPRequest(url: Self.url)) }
        #expect(await eventually { events.lines().contains("auth.refresh.joined 401") })
        gate.open()
        #expect(try await first.value.status == 200)
        #expect(try await second.value.status == 200)

        let lines = events.lines()
        #expect(lines.filter { $0 == "auth.refresh.started 401" }.count == 1)
        #expect(lines.filter { $0 == "auth.refresh.joined 401" }.count == 1)
        #expect(lines.filter { $0 == "auth.refresh.finished" }.count == 2, "each call's wait ends: \(lines)")
        #expect(tokens.refreshes.value == 1)
    }

    @Test func eventsCarryTheMethodAndOriginButNeverThePathOrQuery() async throws {
        let events = EventLog()
        let client = Pipeline(transport: ScriptedTransport([.ok()])) { ObserverMiddleware.call(events) }
        _ = try await client.send(HTTPRequest(url: Self.url))
        for event in events.events {
            #expect(event.method == .get)
            #expect(event.origin?.description == "https://api.example:443")
            #expect(!"\(event)".contains("s3cr3t"))
            #expect(!"\(event)".contains("/books"))
        }
    }

    @Test func withoutACallLayerTheAttemptLayerAndThePluginsReportNothing() async throws {
        let transport = ScriptedTransport([.status(503), .ok()])
        let client = Pipeline(transport: transport) {
            CacheMiddleware()
            ObserverMiddleware.attempt()
        }
        let request = HTTPRequest(url: Self.url)
        request.report(.callStarted)  // nobody to tell: nothing happens, nothing is added
        let response = try await client.send(request)
        #expect(response.status == 503)
        #expect(transport.requests.count == 1)
        #expect(transport.requests.allSatisfy { $0.context.observation == nil && $0.context.count == 0 })
    }

    @Test func aStreamedBodyEndsTheCallWhenItIsReadOrDropped() async throws {
        let events = EventLog()
        let transport = ScriptedTransport { _ in .streamed(chunks: [Data("ab".utf8), Data("cd".utf8)]) }
        let client = Pipeline(transport: transport) {
            ObserverMiddleware.call(events)
            ObserverMiddleware.attempt()
        }
        let read = try await client.send(HTTPRequest(url: Self.url))
        #expect(events.lines() == ["call.started", "attempt.started"], "nothing ends before the body")
        #expect(try await read.body.collect(upTo: 100) == Data("abcd".utf8))
        #expect(events.lines().suffix(2) == ["attempt.finished 200", "call.finished 200"])

        events.reset()
        do {
            let dropped = try await client.send(HTTPRequest(url: Self.url))
            #expect(dropped.status == 200)
        }
        #expect(
            events.lines() == [
                "call.started", "attempt.started", "attempt.finished 200 (abandoned)", "call.finished 200 (abandoned)",
            ])
    }
}

/// A one-shot gate tasks wait on until it opens.
final class AsyncGate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Tokens whose refresh waits for a gate, counting refreshes.
final class GatedTokens: CredentialSource {
    let gate: AsyncGate
    let refreshes = Locked(0)
    init(gate: AsyncGate) { self.gate = gate }
    func currentCredential() async throws -> Credential? { .bearer("old") }
    func refreshCredential(after failed: Credential?) async throws -> Credential {
        refreshes.withLock { $0 += 1 }
        await gate.wait()
        return .bearer("new")
    }
}

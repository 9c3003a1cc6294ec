import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite struct AuthSingleFlightTests {
    @Test func thousandConcurrentRequestsWithAnExpiredCredentialCauseOneRefreshAndAllSucceed() async throws {
        let gate = Gate()
        let source = TestSource(gate: gate)
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<1_000 {
                group.addTask { (try? await pipeline.send(HTTPRequest(url: testURL)).status.code) ?? -1 }
            }
            await eventually(within: .seconds(3)) { transport.requests.count >= 1_000 }
            gate.open()
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(Set(statuses))")
        #expect(source.refreshes == 1)
        #expect(source.state.value.persisted == ["token-1"])
        let replays = transport.requests.filter { $0.fields["Authorization"] == "Bearer token-1" }
        #expect(replays.count == 1_000)
    }

    @Test func requestThatFailedWithAReplacedTokenIsReplayedWithoutAnotherRefresh() async throws {
        let slowGate = Gate()
        let source = TestSource()
        let transport = ScriptedTransport { request in
            let header = request.fields["Authorization"]
            if request.url.path == "/slow", header == "Bearer token-0" {
                try await slowGate.wait()  // held while the other request refreshes
            }
            return header == "Bearer token-1" ? .ok() : .status(401)
        }
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let slowURL = testURL.deletingLastPathComponent().appendingPathComponent("slow")
        let slow = Task { try await pipeline.send(HTTPRequest(url: slowURL)) }
        await eventually(within: .seconds(3)) { transport.requests.count == 1 }
        #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 200)
        #expect(source.refreshes == 1)
        slowGate.open()
        #expect(try await slow.value.status == 200)
        #expect(source.refreshes == 1, "the stale token was replaced without a second refresh")
    }

    @Test func expiringCredentialIsSentWhileOneBackgroundRefreshReplacesItForAllConcurrentRequests() async throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let gate = Gate()
        let source = TestSource(current: .bearer("token-0", expiresAt: now.addingTimeInterval(10)), gate: gate)
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(
                source: source, options: AuthOptions(proactiveRefreshWindow: .seconds(60)), clock: ManualClock(),
                now: { now })
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask { _ = try? await pipeline.send(HTTPRequest(url: testURL)) }
            }
        }
        #expect(transport.requests.count == 50, "nobody waited for the refresh")
        #expect(transport.requests.allSatisfy { $0.fields["Authorization"] == "Bearer token-0" })
        gate.open()
        #expect(try await sendsEventually("Bearer token-1", through: pipeline, recordedBy: transport))
        #expect(source.refreshes == 1)
    }

    @Test func refreshedTokenShorterThanTheWindowIsUsedUntilItReallyExpires() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let source = TestSource(current: nil)
        source.state.withLock { $0.nextToken = { "token-\($0)" } }
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(
                source: ShortLived(base: source, lifetime: 30, now: { clock.value }), clock: ManualClock(),
                now: { clock.value })
        }
        for _ in 0..<5 { _ = try await pipeline.send(HTTPRequest(url: testURL)) }
        #expect(source.refreshes == 1)
        clock.withLock { $0 = $0.addingTimeInterval(31) }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(source.refreshes == 2)
    }

    @Test func persistenceRunsOncePerRefreshBeforeAnyReplay() async throws {
        let events = Locked<[String]>([])
        let source = TestSource(events: events)
        let pipeline = Pipeline(transport: server(accepting: { "token-1" }, events: events)) {
            AuthMiddleware(source: source, clock: ManualClock())
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try? await pipeline.send(HTTPRequest(url: testURL)) } }
        }
        let log = events.value
        #expect(log.filter { $0 == "refresh" }.count == 1)
        #expect(log.filter { $0.hasPrefix("persist") } == ["persist token-1"])
        let persistedAt = try #require(log.firstIndex(of: "persist token-1"))
        let firstReplay = try #require(log.firstIndex(of: "send Bearer token-1"))
        #expect(persistedAt < firstReplay)
    }
}

/// Wraps a source so each refreshed token expires `lifetime` seconds after it is issued.
struct ShortLived: CredentialSource {
    let base: TestSource
    let lifetime: TimeInterval
    let now: @Sendable () -> Date

    func currentCredential() async throws -> Credential? { try await base.currentCredential() }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        let fresh = try await base.refreshCredential(after: failed)
        return .bearer(fresh.token, expiresAt: now().addingTimeInterval(lifetime))
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Wraps a TestSource: the next read (its result read first, then held) or the next persist can be
/// held at a gate; the gate is taken once.
final class GatedSource: CredentialSource {
    let base: TestSource
    let readGate = Locked<Gate?>(nil)
    let persistGate = Locked<Gate?>(nil)

    init(base: TestSource) { self.base = base }

    func currentCredential() async throws -> Credential? {
        let value = try await base.currentCredential()
        if let gate = readGate.withLock({ held -> Gate? in
            defer { held = nil }
            return held
        }) {
            try await gate.wait()
        }
        return value
    }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        try await base.refreshCredential(after: failed)
    }

    func persist(_ credential: Credential) async throws {
        if let gate = persistGate.withLock({ held -> Gate? in
            defer { held = nil }
            return held
        }) {
            try await gate.wait()
        }
        try await base.persist(credential)
    }

    func removeCredential() async throws { try await base.removeCredential() }
}

/// A RotatingSource whose persist fails for the tokens listed.
struct FailingPersistSource: CredentialSource {
    let base: RotatingSource
    let failing: Set<String>

    func currentCredential() async throws -> Credential? { try await base.currentCredential() }
    func refreshCredential(after failed: Credential?) async throws -> Credential {
        try await base.refreshCredential(after: failed)
    }
    func persist(_ credential: Credential) async throws {
        if failing.contains(credential.token) { throw URLError(.cannotWriteToFile) }
        try await base.persist(credential)
    }
}

@Suite(.timeLimit(.minutes(1))) struct AuthSwitchRaceTests {
    // lease() reads identity/current after load()'s await without re-checking `switching`.
    @Test("A first read of the source that overlaps a sign-in never replays alice's request as bob")
    func r1_firstReadOverlappingASignIn() async throws {
        let base = TestSource(current: .bearer("alice-token"))
        let source = GatedSource(base: base)
        let read = Gate()
        let write = Gate()
        source.readGate.withLock { $0 = read }
        source.persistGate.withLock { $0 = write }
        let transport = ScriptedTransport { request in
            request.fields["Authorization"] == "Bearer alice-token" ? .status(401) : .ok()
        }
        let auth = AuthMiddleware(source: source, clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        let alices = Task { try await pipeline.send(HTTPRequest(url: testURL)) }
        await eventually(within: .seconds(3)) { read.waiting == 1 }
        let signIn = Task { try await auth.setCredential(.bearer("bob-token")) }
        await eventually(within: .seconds(3)) { write.waiting == 1 }
        read.open()
        await eventually(within: .seconds(3)) { transport.requests.count == 1 }
        write.open()
        try await signIn.value
        let response = try await alices.value
        let sent = transport.requests.map { $0.fields["Authorization"] ?? "none" }
        // Either the request waited for the switch and went as bob, or it went as alice and its 401 is returned.
        #expect(
            sent != ["Bearer alice-token", "Bearer bob-token"],
            "alice's rejected request was replayed with bob's credential")
        #expect(sent == ["Bearer bob-token"] || response.status == 401)
    }

    // the same window with readsSourceOnEveryRequest: any request concurrent with a switch.
    @Test("A re-read that overlaps an account switch never replays alice's request as bob")
    func r1b_rereadOverlappingAnAccountSwitch() async throws {
        let base = TestSource(current: .bearer("alice-token"))
        let source = GatedSource(base: base)
        let aliceRevoked = Locked(false)
        let transport = ScriptedTransport { request in
            let header = request.fields["Authorization"]
            if header == "Bearer alice-token" { return aliceRevoked.value ? .status(401) : .ok() }
            return .ok()
        }
        let auth = AuthMiddleware(
            source: source, options: AuthOptions(readsSourceOnEveryRequest: true), clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        let read = Gate()
        let write = Gate()
        source.readGate.withLock { $0 = read }
        source.persistGate.withLock { $0 = write }
        let alices = Task { try await pipeline.send(HTTPRequest(url: testURL)) }
        await eventually(within: .seconds(3)) { read.waiting == 1 }
        aliceRevoked.withLock { $0 = true }  // alice signed out server-side as the app switches to bob
        let signIn = Task { try await auth.setCredential(.bearer("bob-token")) }
        await eventually(within: .seconds(3)) { write.waiting == 1 }
        read.open()
        await eventually(within: .seconds(3)) { transport.requests.count == 2 }
        write.open()
        try await signIn.value
        let response = try await alices.value
        let sent = transport.requests.map { $0.fields["Authorization"] ?? "none" }
        #expect(
            sent != ["Bearer alice-token", "Bearer alice-token", "Bearer bob-token"], "replayed under the new identity")
        #expect(sent == ["Bearer alice-token", "Bearer bob-token"] || response.status == 401)
    }

    // a setCredential whose write fails has already begun a new identity: the refresh in flight is
    // detached and its (rotated) result discarded, so the next refresh re-sends the spent refresh token.
    @Test("A sign-in whose write fails changes nothing and never costs the refresh in flight")
    func r2_failedSignInChangesNothing() async throws {
        let clock = ManualClock()
        let endpoint = RotatingTokenEndpoint(refresh: "refresh-0", access: nil)
        let rotating = RotatingSource(
            endpoint: endpoint, clock: clock, latency: .seconds(2),
            storage: .init(access: "access-0", refresh: "refresh-0"))
        let auth = AuthMiddleware(source: FailingPersistSource(base: rotating, failing: ["bob-token"]), clock: clock)
        let pipeline = Pipeline(transport: endpoint.api()) { auth }
        let first = Task { try await pipeline.send(HTTPRequest(url: testURL)).status }
        await clock.waitForSleepers(2)  // the endpoint's answer and the waiter's timeout
        await #expect(throws: URLError.self) { try await auth.setCredential(.bearer("bob-token")) }
        clock.advance(by: .seconds(2))
        let firstStatus = try await first.value
        try await Task.sleep(for: .milliseconds(50))  // let the refresh's completion run
        let second = Task { try await pipeline.send(HTTPRequest(url: testURL)).status }
        let secondResult = await reviewDrive(second, on: clock)
        let state = endpoint.state.value
        #expect(firstStatus == 200, "the failed sign-in changed nothing, so the first request is replayed")
        #expect(state.reuseDetected == 0, "refresh token sent twice: \(state.exchanges)")
        #expect((try? secondResult.get()) == 200, "\(secondResult)")
        #expect(rotating.persisted.value == ["access-1"], "\(rotating.persisted.value)")
    }

    // a request carrying its own Authorization header is leased for before the header check.
    @Test("A request carrying its own Authorization passes through untouched even after sign-out")
    func r3_selfAuthorisedRequestPassesThrough() async throws {
        let source = TestSource(current: .bearer("alice-token"))
        let transport = ScriptedTransport { _ in .ok() }
        let auth = AuthMiddleware(source: source, clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        try await auth.setCredential(nil)
        var own = HTTPRequest(url: testURL)
        own.fields["Authorization"] = "Bearer caller"
        let result = await outcome { try await pipeline.send(own).status }
        #expect((try? result.get()) == 200, "\(result)")
        #expect(transport.requests.count == 1)
    }

    @Test("A CancellationError from the source reaches no caller that was not cancelled")
    func r5_sourceCancellationIsARefreshFailure() async throws {
        let source = TestSource()
        source.fail(with: CancellationError())
        let pipeline = Pipeline(transport: server(accepting: { "token-1" })) {
            AuthMiddleware(source: source, clock: ManualClock())
        }
        let result = await outcome { try await pipeline.send(HTTPRequest(url: testURL)) }
        var isCancellation = false
        if case .failure(let error) = result, error is CancellationError { isCancellation = true }
        #expect(!isCancellation, "an uncancelled request failed with CancellationError")
    }
}

func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

/// Waits for `task`, advancing the clock 2 s whenever something sleeps on it (at most 3 s of real time).
func reviewDrive<T: Sendable>(_ task: Task<T, any Error>, on clock: ManualClock) async -> Result<T, any Error> {
    let done = Locked(false)
    let watcher = Task {
        _ = try? await task.value
        done.withLock { $0 = true }
    }
    for _ in 0..<3_000 where !done.value {
        if !clock.pendingDeadlines.isEmpty { clock.advance(by: .seconds(2)) }
        try? await Task.sleep(for: .milliseconds(1))
    }
    if !done.value { task.cancel() }
    await watcher.value
    return await outcome { try await task.value }
}

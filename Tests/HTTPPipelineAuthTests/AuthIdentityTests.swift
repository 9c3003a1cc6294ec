import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sign-in, account switch and sign-out, and what a request sent under one identity may get.
@Suite(.timeLimit(.minutes(1))) struct AuthIdentityTests {
    static func isReauthentication(_ error: any Error) -> Bool {
        if (error as? AuthError)?.isReauthenticationRequired == true { return true }
        return false
    }

    @Test("Setting a credential signs in, switches account and signs out, storage first")
    func settingACredentialSignsInSwitchesAndSignsOut() async throws {
        let source = TestSource(current: nil)
        let transport = ScriptedTransport { _ in .ok() }
        let auth = AuthMiddleware(source: source, clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }

        try await auth.setCredential(.bearer("alice-token"))
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        try await auth.setCredential(.bearer("bob-token"))
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        try await auth.setCredential(nil)
        await #expect(
            performing: { try await pipeline.send(HTTPRequest(url: testURL)) }, throws: Self.isReauthentication)

        #expect(
            transport.requests.map { $0.fields["Authorization"] } == [
                "Bearer alice-token", "Bearer bob-token",
            ])
        #expect(source.state.value.persisted == ["alice-token", "bob-token"])
        #expect(source.state.value.removals == 1)
        #expect(source.refreshes == 0, "a signed-out middleware never asks the source to refresh")
    }

    @Test("A source read on every request follows a change from alice to bob, then a sign-out")
    func sourceReadOnEveryRequestFollowsItsStorage() async throws {
        let source = TestSource(current: .bearer("alice-token"))
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(source: source, options: AuthOptions(readsSourceOnEveryRequest: true), clock: ManualClock())
        }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        source.state.withLock { $0.current = .bearer("bob-token") }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        source.state.withLock { $0.current = nil }
        await #expect(
            performing: { try await pipeline.send(HTTPRequest(url: testURL)) }, throws: Self.isReauthentication)
        #expect(
            transport.requests.map { $0.fields["Authorization"] } == [
                "Bearer alice-token", "Bearer bob-token",
            ])
        #expect(source.refreshes == 0)
    }

    @Test("A source read once keeps its first credential until one is set")
    func sourceReadOnceKeepsItsCredential() async throws {
        let source = TestSource(current: .bearer("alice-token"))
        let transport = ScriptedTransport { _ in .ok() }
        let auth = AuthMiddleware(source: source, clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        source.state.withLock { $0.current = .bearer("bob-token") }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        try await auth.setCredential(.bearer("bob-token"))
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(
            transport.requests.map { $0.fields["Authorization"] } == [
                "Bearer alice-token", "Bearer alice-token", "Bearer bob-token",
            ])
    }

    @Test("A request rejected under one identity is never replayed with the next identity's credential")
    func rejectedRequestOfAnOldIdentityIsNotReplayed() async throws {
        let held = Gate()
        let source = TestSource(current: .bearer("alice-token"))
        let transport = ScriptedTransport { request in
            let header = request.fields["Authorization"]
            if header == "Bearer alice-token" {
                try await held.wait()
                return .status(401)
            }
            return .ok()
        }
        let auth = AuthMiddleware(source: source, clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        let alices = Task { try await pipeline.send(HTTPRequest(url: testURL)) }
        await eventually(within: .seconds(3)) { held.waiting == 1 }
        try await auth.setCredential(.bearer("bob-token"))
        held.open()
        let response = try await alices.value
        #expect(response.status == 401)
        #expect(transport.requests.count == 1, "alice's request was replayed as bob")
        #expect(source.refreshes == 0)
    }

    @Test("A refresh of the previous identity that ends after an account switch is neither adopted nor persisted")
    func refreshOfAnOldIdentityIsDiscarded() async throws {
        let gate = Gate()
        let source = TestSource(current: .bearer("alice-token"), gate: gate)
        let transport = ScriptedTransport { request in
            request.fields["Authorization"] == "Bearer alice-token" ? .status(401) : .ok()
        }
        let auth = AuthMiddleware(source: source, clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        let alices = Task { try await pipeline.send(HTTPRequest(url: testURL)) }
        await eventually(within: .seconds(3)) { gate.waiting == 1 }
        try await auth.setCredential(.bearer("bob-token"))
        let response = try await alices.value
        #expect(response.status == 401, "alice's waiter gives up without a replay")
        gate.open()
        await eventually(within: .seconds(3)) { gate.waiting == 0 }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        try await Task.sleep(for: .milliseconds(20))
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(source.state.value.persisted == ["bob-token"])
        #expect(
            transport.requests.suffix(2).allSatisfy {
                $0.fields["Authorization"] == "Bearer bob-token"
            })
    }

    @Test("A credential that cannot be sent is refused and nothing is written")
    func unsendableCredentialIsRefused() async throws {
        let source = TestSource(current: nil)
        let auth = AuthMiddleware(source: source, clock: ManualClock())
        await #expect(throws: AuthError.self) { try await auth.setCredential(.bearer("two words")) }
        #expect(source.state.value.persisted.isEmpty)
    }

    @Test("A failed sign-out changes nothing")
    func failedSignOutChangesNothing() async throws {
        let source = TestSource(current: .bearer("alice-token"))
        source.state.withLock { $0.removalFailure = URLError(.cannotCreateFile) }
        let transport = ScriptedTransport { _ in .ok() }
        let auth = AuthMiddleware(source: source, clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        await #expect(throws: URLError.self) { try await auth.setCredential(nil) }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(transport.requests.first?.fields["Authorization"] == "Bearer alice-token")
    }
}

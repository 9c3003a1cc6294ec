import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import TestSupport
import Testing

/// The usual request takes the credential without entering the store's actor; whatever changes
/// the credential is seen by every request that starts after the change.
@Suite(.timeLimit(.minutes(1))) struct AuthPublishedLeaseTests {
    @Test("A credential set between requests is carried by the very next request")
    func credentialSetBetweenRequestsIsCarriedNext() async throws {
        let transport = ScriptedTransport { _ in .ok() }
        let auth = AuthMiddleware(source: TestSource(), clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        for _ in 0..<3 { _ = try await pipeline.send(HTTPRequest(url: testURL)) }
        try await auth.setCredential(.bearer("alice"))
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        try await auth.setCredential(.apiKey("bob-key"))
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        let sent = transport.requests.map { $0.fields["Authorization"] ?? $0.fields["X-API-Key"] ?? "none" }
        #expect(sent == ["Bearer token-0", "Bearer token-0", "Bearer token-0", "Bearer alice", "bob-key"])
    }

    @Test("Requests that start after a sign-in returns never carry the credential before it, under load")
    func requestsAfterASignInNeverCarryTheOldCredential() async throws {
        // The server answers with the credential it got, so each task sees what its request carried.
        let transport = ScriptedTransport { request in .ok(request.fields["Authorization"] ?? "none") }
        let auth = AuthMiddleware(source: TestSource(), clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        let signedIn = Locked(false)
        let sent = Locked(0)
        let (stale, afterSignIn) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var stale = 0
                    var after = 0
                    // Each task goes on until 50 of its requests started after the sign-in returned
                    // (bounded, should the sign-in never return).
                    for _ in 0..<20_000 where after < 50 {
                        let startedAfterSignIn = signedIn.value
                        let response = try await pipeline.send(HTTPRequest(url: testURL))
                        let carried = String(decoding: try await response.body.collect(upTo: 1_024), as: UTF8.self)
                        sent.withLock { $0 += 1 }
                        if startedAfterSignIn {
                            after += 1
                            if carried != "Bearer alice" { stale += 1 }
                        }
                        await Task.yield()
                    }
                    return (stale, after)
                }
            }
            group.addTask {
                await eventually(within: .seconds(3)) { sent.value >= 200 }  // signs in while requests are in flight
                try await auth.setCredential(.bearer("alice"))
                signedIn.withLock { $0 = true }
                return (0, 0)
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        #expect(afterSignIn == 8 * 50)
        #expect(stale == 0)
    }

    @Test("A credential refreshed after a 401 replaces the published one for every later request")
    func refreshAfterA401ReplacesThePublishedCredential() async throws {
        let valid = Locked("token-0")
        let source = TestSource()
        let transport = server(accepting: { valid.value })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        for _ in 0..<3 { #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 200) }
        valid.withLock { $0 = "token-1" }  // the server revokes token-0
        #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 200)
        for _ in 0..<3 { #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 200) }
        #expect(source.refreshes == 1)
        #expect(transport.requests.suffix(3).allSatisfy { $0.fields["Authorization"] == "Bearer token-1" })
    }

    @Test("A source read on every request is read on every request, never served from a published lease")
    func sourceReadOnEveryRequestIsNeverBypassed() async throws {
        let source = TestSource()
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(source: source, options: AuthOptions(readsSourceOnEveryRequest: true), clock: ManualClock())
        }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        source.state.withLock { $0.current = .bearer("changed-elsewhere") }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(
            transport.requests.map { $0.fields["Authorization"] } == ["Bearer token-0", "Bearer changed-elsewhere"])
    }

    @Test("A published credential is never sent past its expiry, even with a negative proactive window")
    func publishedCredentialIsNeverSentPastItsExpiry() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let source = TestSource(current: .bearer("token-0", expiresAt: clock.value.addingTimeInterval(10)))
        var options = AuthOptions()
        options.proactiveRefreshWindow = .seconds(-30)  // past the initialiser's clamp
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(source: source, options: options, clock: ManualClock(), now: { clock.value })
        }
        for _ in 0..<3 { _ = try await pipeline.send(HTTPRequest(url: testURL)) }
        clock.withLock { $0 = $0.addingTimeInterval(20) }  // token-0 expired 10 s ago
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(source.refreshes == 1, "an expired credential is refreshed before it is sent")
        #expect(transport.requests.last?.fields["Authorization"] == "Bearer token-1")
    }

    @Test("A request carrying its own credential passes untouched while a lease is published")
    func requestCarryingItsOwnCredentialPassesUntouched() async throws {
        let source = TestSource()
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        var own = HTTPRequest(url: testURL)
        own.fields["authorization"] = "Bearer mine"
        _ = try await pipeline.send(own)
        #expect(transport.requests.map { $0.fields["Authorization"] } == ["Bearer token-0", "Bearer mine"])
        #expect(transport.requests.last?.fields.count == 1, "the request's own field, and no second one")
        #expect(source.refreshes == 0)
    }

    @Test("After a sign-out, a request fails for want of a credential instead of taking the published one")
    func signOutWithdrawsThePublishedCredential() async throws {
        let transport = ScriptedTransport { _ in .ok() }
        let auth = AuthMiddleware(source: TestSource(), clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        for _ in 0..<3 { _ = try await pipeline.send(HTTPRequest(url: testURL)) }
        try await auth.setCredential(nil)
        let error = await #expect(throws: AuthError.self) { try await pipeline.send(HTTPRequest(url: testURL)) }
        #expect(error?.isReauthenticationRequired == true)
        #expect(error?.reason == "signed out")
        #expect(error?.description == "the user is signed out; sign in again", "not \"the refresh token was rejected\"")
        #expect(transport.requests.count == 3)
    }
}

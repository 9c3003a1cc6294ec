import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refreshing ahead of expiry never costs a request, and is not limited to stored credentials.
@Suite(.timeLimit(.minutes(1))) struct AuthProactiveRefreshTests {
    @Test("A credential inside the proactive window is still sent while the token endpoint is down")
    func stillValidCredentialIsSentDuringATokenEndpointOutage() async throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let source = TestSource(current: .bearer("token-0", expiresAt: now.addingTimeInterval(30)))
        source.fail(with: URLError(.cannotConnectToHost))
        let transport = server(accepting: { "token-0" })
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(source: source, clock: ManualClock(), now: { now })
        }
        var statuses: [Int] = []
        for _ in 0..<8 {
            statuses.append((try? await pipeline.send(HTTPRequest(url: testURL)).status.code) ?? -1)
        }
        #expect(statuses == Array(repeating: 200, count: 8))
        #expect(transport.requests.count == 8)
        #expect(source.refreshes == 1, "a failed refresh ahead of expiry is not tried on every request")
    }

    @Test("A credential the middleware refreshed itself is renewed ahead of its expiry too")
    func refreshedCredentialIsRenewedAheadOfExpiry() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let source = TestSource(current: nil)
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(
                source: ShortLived(base: source, lifetime: 300, now: { clock.value }), clock: ManualClock(),
                now: { clock.value })
        }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(source.refreshes == 1)
        clock.withLock { $0 = $0.addingTimeInterval(250) }  // 50 s left, inside the 60 s window
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(transport.requests.last?.fields["Authorization"] == "Bearer token-1")
        let renewed = try await sendsEventually("Bearer token-2", through: pipeline, recordedBy: transport)
        #expect(renewed, "the background refresh was adopted")
        #expect(source.refreshes == 2)
    }

    @Test("A token that lives shorter than the window is renewed at its half-life, not on every request")
    func shortLivedTokenIsRenewedAtItsHalfLife() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let source = TestSource(current: nil)
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(
                source: ShortLived(base: source, lifetime: 30, now: { clock.value }), clock: ManualClock(),
                now: { clock.value })
        }
        for _ in 0..<5 { _ = try await pipeline.send(HTTPRequest(url: testURL)) }
        #expect(source.refreshes == 1)
        clock.withLock { $0 = $0.addingTimeInterval(10) }
        for _ in 0..<5 { _ = try await pipeline.send(HTTPRequest(url: testURL)) }
        #expect(source.refreshes == 1, "20 s left of 30: outside the capped 15 s window")
        clock.withLock { $0 = $0.addingTimeInterval(6) }
        let renewed = try await sendsEventually("Bearer token-2", through: pipeline, recordedBy: transport)
        #expect(renewed)
        for _ in 0..<5 { _ = try await pipeline.send(HTTPRequest(url: testURL)) }
        #expect(source.refreshes == 2)
    }

    @Test("After the refresh token is rejected, requests fail fast and the source is not asked again")
    func rejectedRefreshTokenFailsFastUntilANewCredentialIsSet() async throws {
        let source = TestSource()
        source.fail(with: RefreshTokenRejected())
        let transport = server(accepting: { "token-9" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        for _ in 0..<3 {
            await #expect { try await pipeline.send(HTTPRequest(url: testURL)) } throws: { error in
                if (error as? AuthError)?.isReauthenticationRequired == true { return true }
                return false
            }
        }
        #expect(source.refreshes == 1, "the dead refresh token was offered again")
        #expect(transport.requests.count == 1, "nothing is sent with the rejected credential")
    }

    @Test("A source read on every request does not hand back the credential whose refresh token was rejected")
    func rereadSourceDoesNotReviveARejectedCredential() async throws {
        let source = TestSource()
        source.fail(with: RefreshTokenRejected())
        let transport = server(accepting: { "token-9" })
        let auth = AuthMiddleware(
            source: source, options: AuthOptions(readsSourceOnEveryRequest: true), clock: ManualClock())
        let pipeline = Pipeline(transport: transport) { auth }
        for _ in 0..<3 {
            await #expect { try await pipeline.send(HTTPRequest(url: testURL)) } throws: { error in
                if (error as? AuthError)?.isReauthenticationRequired == true { return true }
                return false
            }
        }
        #expect(source.refreshes == 1)
        #expect(transport.requests.count == 1)
        source.state.withLock { $0.current = .bearer("token-9") }  // signed in elsewhere in the app
        #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 200)
    }
}

/// Sends requests (at most 1,000, a millisecond apart) until one carries `authorization`, for
/// waiting on a background refresh; `false` if none did.
func sendsEventually(
    _ authorization: String,
    through pipeline: some HTTPTransport,
    recordedBy transport: ScriptedTransport
) async throws -> Bool {
    for _ in 0..<1_000 {
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        if transport.requests.last?.fields["Authorization"] == authorization { return true }
        try await Task.sleep(for: .milliseconds(1))
    }
    return false
}

import Foundation
import HTTPPipeline
import Testing

@testable import HTTPPipelineAuth

@Suite struct SettledLeaseTests {
    let lease = CredentialStore.Lease(credential: .bearer("tok-1"), identity: 1, epoch: 0)

    @Test func nothingIsPublishedUntilTheStoreSettles() {
        #expect(SettledLease().lease(now: { Date() }) == nil)
    }

    @Test func aPublishedLeaseIsTakenUntilItIsWithdrawn() {
        let settled = SettledLease()
        settled.publish(lease, refreshFrom: nil)
        #expect(settled.lease(now: { Date() })?.credential == lease.credential)
        settled.withdraw()
        #expect(settled.lease(now: { Date() }) == nil)
    }

    @Test func aPublishedLeaseIsNotTakenOnceItsRefreshWindowHasStarted() {
        let settled = SettledLease()
        let start = Date(timeIntervalSince1970: 1_000)
        settled.publish(lease, refreshFrom: start)
        #expect(settled.lease(now: { start.addingTimeInterval(-1) }) != nil)
        #expect(settled.lease(now: { start }) == nil)
    }

    @Test func settingACredentialWithdrawsThePublishedLeaseBeforeTheNextRequest() async throws {
        let transport = AuthorizationRecorder()
        let auth = AuthMiddleware(source: TestSource(current: .bearer("tok-alice")))
        let pipeline = Pipeline(transport: transport) { auth }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        try await auth.setCredential(.bearer("tok-bob"))
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        try await auth.setCredential(nil)
        // Signed out: the lease published for bob is gone, so nothing is sent with his token.
        await #expect(throws: AuthError.self) { _ = try await pipeline.send(HTTPRequest(url: testURL)) }
        #expect(transport.seen.value == ["Bearer tok-alice", "Bearer tok-alice", "Bearer tok-bob"])
    }
}

/// Answers 200 and records each request's `Authorization` field.
private struct AuthorizationRecorder: HTTPTransport {
    let seen = Locked<[String?]>([])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        seen.withLock { $0.append(request.fields["Authorization"]) }
        return HTTPResponse(status: 200)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineLogging
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

@testable import pipeline_demo

/// Auth end to end: `URLSessionTransport`, the loopback server's token endpoint that rotates both
/// tokens on every refresh, and a credential source that calls it through a pipeline without auth.
@Suite struct AuthEndToEndTests {
    @Test func expiredTokensAreRefreshedOnceAndRotatedRefreshTokensAreNeverReused() async throws {
        let server = LoopbackServer()
        let tokens = DemoTokenServer()
        tokens.install(on: server)
        try server.start()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let tokenClient = Pipeline(transport: transport) { LoggingMiddleware(level: .basic, sink: InMemoryLogSink()) }
        let source = DemoCredentialSource(
            tokenEndpoint: server.baseURL.appendingPathComponent("token"), transport: tokenClient)
        // A day to refresh, not 30 s: a stalled sanitized run must not turn a slow refresh into a
        // failed call.
        let patient = AuthOptions(refreshTimeout: .seconds(86_400))
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, options: patient) }
        let shelf = HTTPRequest(url: server.baseURL.appendingPathComponent("me/shelf"))

        #expect(try await pipeline.send(shelf).status == 200)
        for round in 1...3 {
            tokens.expireAccessToken()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { try await pipeline.send(shelf).status.code } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 10), "round \(round)")
            #expect(tokens.state.value.refreshCalls == round, "one refresh per expiry")
        }
        let tokenRequests = server.requests.filter { $0.path == "/token" }
        let presented = tokenRequests.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(presented == ["refresh_token=refresh-1", "refresh_token=refresh-2", "refresh_token=refresh-3"])
        #expect(Set(presented).count == presented.count, "no refresh token was used twice")
        #expect(
            tokenRequests.allSatisfy { $0.header("Authorization") == nil }, "the token endpoint is called without auth")
    }
}

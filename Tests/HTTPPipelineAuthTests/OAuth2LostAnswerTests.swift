import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineCurl
import HTTPPipelineTesting
import HTTPPipelineTimeout
import HTTPPipelineURLSession
import TestSupport
import Testing

/// The transports a token source's calls go through, against a real loopback token endpoint.
enum TokenTransport: String, CaseIterable, CustomTestStringConvertible {
    case urlSession, curl

    func make() -> any HTTPTransport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .curl: CurlTransport()
        }
    }

    var testDescription: String { rawValue }
}

/// A signed-in client: an access token the API no longer accepts, and `refresh-0`.
struct SignedInClient {
    let endpoint: TokenEndpointServer
    let storage: InMemoryOAuth2TokenStorage
    let tokens: OAuth2TokenSource
    let api: any HTTPTransport

    init(
        over transport: TokenTransport, grace: Duration? = nil, tokenDeadline: Duration? = nil,
        tokenTransport: (any HTTPTransport)? = nil
    ) throws {
        endpoint = try TokenEndpointServer(refresh: "refresh-0", access: nil, grace: grace)
        storage = InMemoryOAuth2TokenStorage(OAuth2Token(accessToken: "access-0", refreshToken: "refresh-0"))
        let below = tokenTransport ?? transport.make()
        let tokenPipeline = Pipeline(transport: ForwardingTransport { try await below.send($0) }) {
            if let tokenDeadline { TimeoutMiddleware.deadline(tokenDeadline) }
        }
        tokens = OAuth2TokenSource(
            configuration: OAuth2Configuration(tokenEndpoint: endpoint.tokenURL, clientID: "app", reuseGrace: grace),
            tokenPipeline: tokenPipeline, storage: storage)
        let auth = AuthMiddleware(source: tokens)
        let apiTransport = transport.make()
        api = Pipeline(transport: ForwardingTransport { try await apiTransport.send($0) }) { auth }
    }

    /// `GET /me`: its status, or the `AuthError` it failed with.
    func me() async -> Result<Int, AuthError> {
        do {
            return .success(try await api.send(HTTPRequest(url: endpoint.meURL)).status.code)
        } catch let error as AuthError {
            return .failure(error)
        } catch {
            Issue.record("unexpected error \(error)")
            return .failure(.refreshFailed(underlying: error))
        }
    }
}

@Suite(.serialized) struct OAuth2LostAnswerTests {
    @Test(arguments: TokenTransport.allCases)
    func aRefreshWhoseAnswerIsLostFailsAsOutcomeUnknownAndItsRefreshTokenIsNeverPresentedAgain(
        transport: TokenTransport
    ) async throws {
        let client = try SignedInClient(over: transport)
        defer { client.endpoint.stop() }
        client.endpoint.state.withLock { $0.answersToLose = 1 }

        let first = await client.me()
        let second = await client.me()

        #expect(first.failure?.isRefreshOutcomeUnknown == true, "\(first)")
        #expect(first.failure?.isReauthenticationRequired == true)
        #expect(second.failure?.isRefreshOutcomeUnknown == true, "\(second)")
        let seen = client.endpoint.state.value
        #expect(seen.presented == ["refresh-0"])
        #expect(seen.reuseDetected == 0)
    }

    @Test(arguments: TokenTransport.allCases)
    func aTokenCallThatOutlivesItsDeadlineWhileTheServerRotatesNeverLeadsToReuse(transport: TokenTransport)
        async throws
    {
        let client = try SignedInClient(over: transport, tokenDeadline: .milliseconds(100))
        defer { client.endpoint.stop() }
        client.endpoint.state.withLock { $0.delay = .milliseconds(700) }

        let first = await client.me()
        // The server answers late, after it rotated; the next request must not try again.
        try await Task.sleep(for: .milliseconds(800))
        let second = await client.me()

        #expect(first.failure?.isRefreshOutcomeUnknown == true, "\(first)")
        #expect(second.failure?.isRefreshOutcomeUnknown == true, "\(second)")
        let seen = client.endpoint.state.value
        #expect(seen.presented == ["refresh-0"])
        #expect(seen.reuseDetected == 0)
    }

    @Test(arguments: TokenTransport.allCases)
    func withinTheServersReuseGraceALostAnswerIsAskedForAgainAndNobodyIsSignedOut(transport: TokenTransport)
        async throws
    {
        let client = try SignedInClient(over: transport, grace: .seconds(30))
        defer { client.endpoint.stop() }
        client.endpoint.state.withLock { $0.answersToLose = 1 }

        let status = await client.me()

        #expect(status.success == 200, "\(status)")
        let seen = client.endpoint.state.value
        #expect(seen.presented == ["refresh-0", "refresh-0"])
        #expect(seen.graceReuses == 1)
        #expect(seen.reuseDetected == 0)
        let stored = await client.storage.load()
        #expect(stored?.accessToken == seen.currentAccess)
        #expect(stored?.refreshToken == seen.currentRefresh)
    }

    @Test func afterTheGraceHasPassedALostAnswerIsNotAskedForAgain() async throws {
        let clock = ManualClock()
        let endpoint = try TokenEndpointServer(refresh: "refresh-0", access: nil, grace: .seconds(30))
        defer { endpoint.stop() }
        endpoint.state.withLock { $0.answersToLose = 1 }
        let tokens = OAuth2TokenSource(
            configuration: OAuth2Configuration(
                tokenEndpoint: endpoint.tokenURL, clientID: "app", reuseGrace: .seconds(30)),
            tokenPipeline: TimeMovingTransport(clock: clock, by: .seconds(31), over: CurlTransport()),
            storage: InMemoryOAuth2TokenStorage(OAuth2Token(accessToken: "access-0", refreshToken: "refresh-0")),
            clock: clock)

        await #expect(throws: RefreshOutcomeUnknown.self) { try await tokens.refreshCredential(after: nil) }
        await #expect(throws: RefreshOutcomeUnknown.self) { try await tokens.refreshCredential(after: nil) }

        #expect(endpoint.state.value.presented == ["refresh-0"])
    }

    @Test func aFailureBeforeSendingKeepsTheRefreshTokenForTheNextRefresh() async throws {
        let refused = Locked(true)
        let curl = CurlTransport()
        let tokenTransport = ForwardingTransport { request in
            if refused.withLock({
                let first = $0
                $0 = false
                return first
            }) {
                throw URLError(.cannotConnectToHost)
            }
            return try await curl.send(request)
        }
        let client = try SignedInClient(over: .curl, tokenTransport: tokenTransport)
        defer { client.endpoint.stop() }

        let first = await client.me()
        let second = await client.me()

        #expect(first.failure?.isRefreshFailed == true, "\(first)")
        #expect(second.success == 200, "\(second)")
        #expect(client.endpoint.state.value.presented == ["refresh-0"])
    }
}

/// Moves a manual clock by a fixed step on every call before sending: a call that takes that
/// long.
struct TimeMovingTransport: HTTPTransport {
    let clock: ManualClock
    let by: Duration
    let over: any HTTPTransport

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        clock.advance(by: by)
        return try await over.send(request)
    }
}

/// A transport that is a closure.
struct ForwardingTransport: HTTPTransport {
    let respond: @Sendable (HTTPRequest) async throws -> HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse { try await respond(request) }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite struct AuthBehaviourTests {
    @Test func bearerAndAPIKeyCredentialsAreAttachedToTheirHeaders() async throws {
        let transport = ScriptedTransport { _ in .ok() }
        let bearer = Pipeline(transport: transport) {
            AuthMiddleware(source: TestSource(current: .bearer("abc")), clock: ManualClock())
        }
        let key = Pipeline(transport: transport) {
            AuthMiddleware(source: TestSource(current: .apiKey("k-1", header: "X-Api-Key")), clock: ManualClock())
        }
        _ = try await bearer.send(HTTPRequest(url: testURL))
        _ = try await key.send(HTTPRequest(url: testURL))
        #expect(transport.requests[0].fields["Authorization"] == "Bearer abc")
        #expect(transport.requests[1].fields["X-Api-Key"] == "k-1")
        #expect(transport.requests[1].fields["Authorization"] == nil)
    }

    @Test func customSchemeSetsWhatItNeeds() async throws {
        let transport = ScriptedTransport { _ in .ok() }
        let credential = Credential(
            token: "s3cr3t",
            scheme: .custom(name: "Authorization") { request, token in
                request.fields["Authorization"] = "Token token=\"\(token)\""
            })
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(source: TestSource(current: credential), clock: ManualClock())
        }
        _ = try await pipeline.send(HTTPRequest(url: testURL))
        #expect(transport.requests.first?.fields["Authorization"] == "Token token=\"s3cr3t\"")
    }

    @Test func requestsThatOptOutOrCarryTheirOwnCredentialPassUntouched() async throws {
        let transport = ScriptedTransport { _ in .status(401) }
        let source = TestSource()
        let options = AuthOptions(skips: { $0.url.host == "public.example.invalid" })
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(source: source, options: options, clock: ManualClock())
        }
        _ = try await pipeline.send(HTTPRequest(url: URL(string: "https://public.example.invalid/x") ?? testURL))
        var own = HTTPRequest(url: testURL)
        own.fields["Authorization"] = "Bearer caller"
        _ = try await pipeline.send(own)
        #expect(transport.requests.map { $0.fields["Authorization"] } == [nil, "Bearer caller"])
        #expect(source.refreshes == 0, "a 401 on an untouched request is the caller's business")
    }

    @Test func invalidTokenChallengeOnAnotherStatusTriggersARefresh() async throws {
        let source = TestSource()
        let transport = ScriptedTransport { request in
            request.fields["Authorization"] == "Bearer token-1"
                ? .ok() : .status(403, headers: ["WWW-Authenticate": #"Bearer realm="api", error="invalid_token""#])
        }
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(
                source: source, options: AuthOptions(isUnauthorized: AuthOptions.invalidTokenChallenge),
                clock: ManualClock())
        }
        #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 200)
        #expect(source.refreshes == 1)
    }

    @Test func missingCredentialIsObtainedByARefreshBeforeTheFirstRequest() async throws {
        let source = TestSource(current: nil)
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        #expect(try await pipeline.send(HTTPRequest(url: testURL)).status == 200)
        #expect(transport.requests.count == 1)
        #expect(source.state.value.failedWith == [nil])
    }

    @Test func cancellingOneWaiterLeavesTheRefreshRunningForTheOthers() async throws {
        let gate = Gate()
        let source = TestSource(gate: gate)
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let leaving = Task { try await pipeline.send(HTTPRequest(url: testURL)) }
        let staying = Task { try await pipeline.send(HTTPRequest(url: testURL)) }
        await eventually(within: .seconds(3)) { transport.requests.count == 2 && gate.waiting == 1 }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(gate.waiting == 1, "the shared refresh is still running")
        gate.open()
        #expect(try await staying.value.status == 200)
        #expect(source.refreshes == 1)
    }

    @Test func cancellingEveryWaiterLeavesTheRefreshRunningAndALaterRequestJoinsIt() async throws {
        let gate = Gate()
        let source = TestSource(gate: gate)
        let transport = server(accepting: { "token-1" })
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let call = Task { try await pipeline.send(HTTPRequest(url: testURL)) }
        await eventually(within: .seconds(3)) { gate.waiting == 1 }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(gate.waiting == 1, "the token call is never abandoned")
        let later = Task { try await pipeline.send(HTTPRequest(url: testURL)) }
        await eventually(within: .seconds(3)) { transport.requests.count == 2 }
        gate.open()
        #expect(try await later.value.status == 200)
        #expect(source.refreshes == 1)
        #expect(source.state.value.persisted == ["token-1"])
    }

    @Test func credentialDescriptionNeverShowsTheToken() {
        let credential = Credential.bearer("super-secret-token", expiresAt: Date(timeIntervalSince1970: 0))
        #expect(!credential.description.contains("super-secret-token"))
        #expect(!"\(AuthError.refreshFailed(underlying: TokenEndpointDown()))".contains("secret"))
    }

    @Test func keepsTheMiddlewareContract() async throws {
        let source = TestSource(current: .bearer("contract-token"))
        var alreadyAuthorised = HTTPRequest(url: URL(string: "http://contract.invalid/resource") ?? testURL)
        alreadyAuthorised.fields["Authorization"] = "Bearer caller"
        let report = await MiddlewareContract(passThroughRequest: alreadyAuthorised)
            .check(AuthMiddleware(source: source, clock: ManualClock()))
        #expect(report.violations.isEmpty, "\(report)")
    }
}

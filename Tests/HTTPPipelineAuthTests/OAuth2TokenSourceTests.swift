import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineCurl
import HTTPPipelineTesting
import TestSupport
import Testing

private let endpoint = URL(string: "https://auth.example.invalid/token") ?? URL(fileURLWithPath: "/")

/// A source over scripted token answers, holding `refresh-0`.
private func source(
    _ replies: [ScriptedTransport.Reply], grant: OAuth2Configuration.Grant = .refreshToken,
    authentication: OAuth2Configuration.ClientAuthentication = .none, scope: [String] = [],
    storage: InMemoryOAuth2TokenStorage = InMemoryOAuth2TokenStorage(
        OAuth2Token(accessToken: "access-0", refreshToken: "refresh-0"))
) -> (OAuth2TokenSource, ScriptedTransport) {
    let transport = ScriptedTransport(replies)
    let tokens = OAuth2TokenSource(
        configuration: OAuth2Configuration(
            tokenEndpoint: endpoint, clientID: "app", clientAuthentication: authentication, grant: grant, scope: scope),
        tokenPipeline: transport, storage: storage, now: { Date(timeIntervalSince1970: 1_000) })
    return (tokens, transport)
}

private func json(_ text: String, status: Int = 200) -> ScriptedTransport.Reply {
    .status(status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
}

private func form(_ request: HTTPRequest?) -> [String: String] {
    TokenEndpointServer.form(request?.body?.bufferedData ?? Data())
}

@Suite struct OAuth2TokenSourceTests {
    @Test func aRefreshSendsTheRefreshTokenGrantAndReadsExpiryScopeAndTheRotatedToken() async throws {
        let (tokens, transport) = source(
            [
                json(
                    #"{"access_token":"access-1","token_type":"bearer","expires_in":"3600","refresh_token":"refresh-1","scope":"read write"}"#
                )
            ],
            scope: ["read", "write"])

        let credential = try await tokens.refreshCredential(after: nil)
        try await tokens.persist(credential)

        #expect(credential == .bearer("access-1"))
        #expect(credential.expiresAt == Date(timeIntervalSince1970: 4_600))
        let request = transport.requests.first
        #expect(request?.method == .post)
        #expect(request?.fields["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(
            form(request) == [
                "grant_type": "refresh_token", "refresh_token": "refresh-0", "scope": "read write", "client_id": "app",
            ])
        let stored = try await tokens.storage.load()
        #expect(stored?.refreshToken == "refresh-1")
        #expect(stored?.scope == ["read", "write"])
    }

    @Test func anAnswerWithoutANewRefreshTokenKeepsTheOneThatWasPresented() async throws {
        let (tokens, _) = source([json(#"{"access_token":"access-1","token_type":"Bearer"}"#)])

        try await tokens.persist(try await tokens.refreshCredential(after: nil))

        let stored = try await tokens.storage.load()
        #expect(stored?.refreshToken == "refresh-0")
        #expect(stored?.expiresAt == nil)
    }

    @Test func aRotatedTokenIsStoredOnlyWhenTheMiddlewarePersistsIt() async throws {
        let (tokens, transport) = source([
            json(#"{"access_token":"access-1","token_type":"Bearer","refresh_token":"refresh-1"}"#),
            json(#"{"access_token":"access-2","token_type":"Bearer","refresh_token":"refresh-2"}"#),
        ])

        _ = try await tokens.refreshCredential(after: nil)
        let before = try await tokens.storage.load()
        // Not persisted (say the user signed out meanwhile): the next refresh still never
        // presents the spent token.
        _ = try await tokens.refreshCredential(after: nil)

        #expect(before?.accessToken == "access-0")
        #expect(transport.requests.map { form($0)["refresh_token"] } == ["refresh-0", "refresh-1"])
    }

    @Test func clientCredentialsAuthenticateWithBasicFormEncodedAsTheStandardSays() async throws {
        let (tokens, transport) = source(
            [json(#"{"access_token":"cc-1","token_type":"Bearer","expires_in":60}"#)], grant: .clientCredentials,
            authentication: .basic(secret: "s3cr:t/é x"))

        let credential = try await tokens.refreshCredential(after: nil)

        #expect(credential.token == "cc-1")
        let request = transport.requests.first
        let expected = Data("app:s3cr%3At%2F%C3%A9+x".utf8).base64EncodedString()
        #expect(request?.fields["Authorization"] == "Basic \(expected)")
        #expect(form(request) == ["grant_type": "client_credentials"])
    }

    @Test func clientCredentialsCanGoInTheFormInstead() async throws {
        let (tokens, transport) = source(
            [json(#"{"access_token":"cc-1","token_type":"Bearer"}"#)], grant: .clientCredentials,
            authentication: .formFields(secret: "s&cret"))

        _ = try await tokens.refreshCredential(after: nil)

        let request = transport.requests.first
        #expect(request?.fields["Authorization"] == nil)
        #expect(form(request) == ["grant_type": "client_credentials", "client_id": "app", "client_secret": "s&cret"])
    }

    @Test func invalidGrantDropsTheRefreshTokenAndTheMiddlewareAsksTheUserToSignIn() async throws {
        let (tokens, transport) = source([
            json(#"{"error":"invalid_grant","error_description":"token revoked\r\nX-Injected: 1"}"#, status: 400),
            .status(500),
        ])
        let auth = AuthMiddleware(source: tokens)
        let api = Pipeline(transport: ScriptedTransport { _ in .status(401) }) { auth }

        let first = await #expect(throws: AuthError.self) { try await api.send(HTTPRequest(url: testURL)) }
        let second = await #expect(throws: AuthError.self) { try await api.send(HTTPRequest(url: testURL)) }

        #expect(first?.isReauthenticationRequired == true)
        #expect(first?.isRefreshOutcomeUnknown == false)
        let refusal = first?.underlying as? OAuth2Error
        #expect(refusal?.code == .invalidGrant)
        #expect(refusal?.status == 400)
        #expect(refusal?.errorDescription == "token revokedX-Injected: 1")
        #expect(second?.isReauthenticationRequired == true)
        #expect(transport.requests.count == 1)
    }

    @Test func anInvalidClientIsAFailedRefreshThatNamesTheServersCode() async throws {
        let (tokens, _) = source([json(#"{"error":"invalid_client"}"#, status: 401)])

        let error = await #expect(throws: OAuth2Error.self) { try await tokens.refreshCredential(after: nil) }

        #expect(error?.code == .invalidClient)
        #expect(error?.isServerError == true)
        #expect(error?.description == "the token endpoint answered 401 invalid_client")
    }

    @Test func aRedirectFromTheTokenEndpointIsNotFollowedAndSpendsNothing() async throws {
        let (tokens, transport) = source([
            .status(307, headers: ["Location": "https://elsewhere.example.invalid/token"]),
            json(#"{"access_token":"access-1","token_type":"Bearer"}"#),
        ])

        let error = await #expect(throws: OAuth2Error.self) { try await tokens.refreshCredential(after: nil) }
        let next = try await tokens.refreshCredential(after: nil)

        #expect(error?.isUnexpectedStatus == true)
        #expect(error?.status == 307)
        #expect(next.token == "access-1")
        #expect(transport.requests.map(\.url.host) == ["auth.example.invalid", "auth.example.invalid"])
    }

    @Test(arguments: [
        ("not json", 200), (#"{"token_type":"Bearer"}"#, 200), (#"{"access_token":"a b","token_type":"Bearer"}"#, 200),
        (#"{"access_token":"a","token_type":"mac"}"#, 200), (#"{"access_token":"a","expires_in":"soon"}"#, 200),
        ("", 504), ("", 502),
    ])
    func anAnswerThatMayHaveRotatedTheTokenButCannotBeUsedIsAnUnknownOutcome(body: String, status: Int) async {
        let (tokens, transport) = source([json(body, status: status), json(#"{"access_token":"x"}"#)])

        await #expect(throws: RefreshOutcomeUnknown.self) { try await tokens.refreshCredential(after: nil) }
        await #expect(throws: RefreshOutcomeUnknown.self) { try await tokens.refreshCredential(after: nil) }

        #expect(transport.requests.count == 1)
    }

    @Test func aTokenResponseLargerThanTheLimitIsNotReadWhole() async {
        let huge = #"{"access_token":"a","pad":""# + String(repeating: "x", count: 100_000) + #""}"#
        let (tokens, _) = source([json(huge)])

        let error = await #expect(throws: RefreshOutcomeUnknown.self) { try await tokens.refreshCredential(after: nil) }

        #expect((error?.underlying as? HTTPBodyError)?.isTooLarge == true)
    }

    @Test func aSourceWithoutARefreshTokenAsksTheUserToSignIn() async throws {
        let (tokens, transport) = source([], storage: InMemoryOAuth2TokenStorage())
        let auth = AuthMiddleware(source: tokens)
        let api = Pipeline(transport: ScriptedTransport { _ in .status(401) }) { auth }

        let error = await #expect(throws: AuthError.self) { try await api.send(HTTPRequest(url: testURL)) }

        #expect(error?.isReauthenticationRequired == true)
        #expect((error?.underlying as? OAuth2Error)?.isNoRefreshToken == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func signingInStoresTheWholeTokenAndTheNextRefreshPresentsItsRefreshToken() async throws {
        let (tokens, transport) = source(
            [json(#"{"access_token":"access-9","token_type":"Bearer","refresh_token":"refresh-9"}"#)],
            storage: InMemoryOAuth2TokenStorage())
        let auth = AuthMiddleware(source: tokens)
        let accepted = Locked<Set<String>>(["Bearer signed-in", "Bearer access-9"])
        let seen = Locked<[String?]>([])
        let api = Pipeline(
            transport: ScriptedTransport { request in
                seen.withLock { $0.append(request.fields["Authorization"]) }
                let ok = accepted.withLock { $0.remove(request.fields["Authorization"] ?? "") != nil }
                return ok ? .ok() : .status(401)
            }
        ) { auth }

        try await tokens.signIn(with: OAuth2Token(accessToken: "signed-in", refreshToken: "refresh-8"), on: auth)
        _ = try await api.send(HTTPRequest(url: testURL))
        let second = try await api.send(HTTPRequest(url: testURL))

        #expect(second.status == 200)
        #expect(seen.value == ["Bearer signed-in", "Bearer signed-in", "Bearer access-9"])
        #expect(form(transport.requests.first)["refresh_token"] == "refresh-8")
        #expect(try await tokens.storage.load()?.refreshToken == "refresh-9")
    }

    @Test func signingOutForgetsTheRefreshToken() async throws {
        let (tokens, transport) = source([])
        let auth = AuthMiddleware(source: tokens)

        try await auth.setCredential(nil)
        let error = await #expect(throws: OAuth2Error.self) { try await tokens.refreshCredential(after: nil) }

        #expect(error?.isNoRefreshToken == true)
        #expect(try await tokens.storage.load() == nil)
        #expect(transport.requests.isEmpty)
    }

    @Test func aTokensDescriptionShowsNoToken() {
        let token = OAuth2Token(accessToken: "sekrit-access", refreshToken: "sekrit-refresh", scope: ["read"])

        #expect(!"\(token)".contains("sekrit"))
        #expect("\(token)" == "OAuth2Token(access token: <redacted>, refresh token: <redacted>, scope: read)")
    }
}

@Suite struct OAuth2ConfigurationTests {
    @Test func aConfigurationsDescriptionNeverShowsTheClientSecret() {
        let configuration = OAuth2Configuration(
            tokenEndpoint: endpoint, clientID: "app", clientAuthentication: .basic(secret: "sekrit-value"))

        #expect(!"\(configuration)".contains("sekrit"))
        #expect(!String(reflecting: configuration).contains("sekrit"))
        #expect(!"\(OAuth2Configuration.ClientAuthentication.formFields(secret: "sekrit-value"))".contains("sekrit"))
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite struct OAuth2SwitchTests {
    @Test func aRefreshAskedForBeforeASignInThatRunsAfterItSpendsNothingOfTheNewAccount() async throws {
        let transport = ScriptedTransport([.ok(#"{"access_token":"b-1","refresh_token":"rb-1"}"#)])
        let tokens = OAuth2TokenSource(
            configuration: OAuth2Configuration(
                tokenEndpoint: URL(string: "https://auth.example.invalid/token") ?? testURL, clientID: "app"),
            tokenPipeline: transport,
            storage: InMemoryOAuth2TokenStorage(OAuth2Token(accessToken: "a-0", refreshToken: "ra-0")))
        let auth = AuthMiddleware(source: tokens)
        _ = try await tokens.currentCredential()
        try await tokens.signIn(with: OAuth2Token(accessToken: "b-0", refreshToken: "rb-0"), on: auth)

        // The previous account's refresh, whose task ran only now.
        let error = await #expect(throws: OAuth2Error.self) {
            try await tokens.refreshCredential(after: .bearer("a-0"))
        }
        let next = try await tokens.refreshCredential(after: .bearer("b-0"))

        #expect(error?.isSuperseded == true)
        #expect(next.token == "b-1")
        #expect(
            transport.requests.map { TokenEndpointServer.form($0.body?.bufferedData ?? Data())["refresh_token"] } == [
                "rb-0"
            ])
    }
}

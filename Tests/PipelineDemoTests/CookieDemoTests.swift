import Testing

@testable import pipeline_demo

/// The demo's cookie section: a login form's session cookie over both transports.
@Suite struct CookieDemoTests {
    @Test func theSessionCookieGoesBackOverBothTransportsAndSignOutEndsIt() async throws {
        let results = try await showCookieLogin()

        #expect(results.map(\.transport) == ["CurlTransport", "URLSessionTransport"])
        for result in results {
            #expect(result.loginStatus == 204)
            #expect(result.loansStatus == 200, "\(result.transport) sent the session cookie")
            #expect(result.afterSignOutStatus == 401)
        }
    }
}

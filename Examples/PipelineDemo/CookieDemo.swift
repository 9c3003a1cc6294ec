import Foundation
import HTTPPipeline
import HTTPPipelineCookies
import HTTPPipelineCurl
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineURLSession

/// What the cookie section saw over one transport, for its test.
struct CookieDemoResult: Equatable {
    let transport: String
    let loginStatus: Int
    let loansStatus: Int
    let afterSignOutStatus: Int
}

/// A member signs in with a form and the library answers with a session cookie; the cookie jar in
/// the standard stack sends it back on every later call, over either transport, and sign-out
/// clears it.
@discardableResult
func showCookieLogin() async throws -> [CookieDemoResult] {
    let server = LoopbackServer()
    let session = "sid=\(UUID().uuidString.prefix(8))"
    server.route("POST", "/session") { request in
        guard String(decoding: request.body, as: UTF8.self) == "member=ada&password=correct-horse" else {
            return .init(status: 403)
        }
        return .init(status: 204, headers: [("Set-Cookie", session + "; Path=/; HttpOnly; SameSite=Lax")])
    }
    server.route("GET", "/me/loans") { request in
        request.header("Cookie") == session
            ? .init(headers: [("Content-Type", "application/json")], body: Data(#"[{"book":1}]"#.utf8))
            : .init(status: 401)
    }
    try server.start()
    defer { server.stop() }

    heading("Cookies: a session cookie from a login form, over both transports")
    var results: [CookieDemoResult] = []
    for (name, transport) in [
        ("CurlTransport", CurlTransport() as any HTTPTransport), ("URLSessionTransport", URLSessionTransport()),
    ] {
        let jar = CookieJar()
        let client = try build(over: transport, cookies: CookieMiddleware(jar: jar))
        var login = HTTPRequest(method: .post, url: server.baseURL.appendingPathComponent("session"))
        login.fields[.contentType] = "application/x-www-form-urlencoded"
        login.body = HTTPBody(Data("member=ada&password=correct-horse".utf8))
        let signedIn = try await client.send(login)
        let decision = signedIn.cookieDecisions.first.map { "\($0)" } ?? "no cookie"
        let loans = try await client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("me/loans")))
        jar.removeAll()
        let after = try await client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("me/loans")))
        print(
            "   \(name): sign-in \(signedIn.status.code) (\(decision)), loans \(loans.status.code) with the cookie, "
                + "after sign-out \(after.status.code)")
        results.append(
            CookieDemoResult(
                transport: name, loginStatus: signedIn.status.code, loansStatus: loans.status.code,
                afterSignOutStatus: after.status.code))
    }
    return results
}

/// The standard stack over `transport` with `cookies`.
private func build(over transport: some HTTPTransport, cookies: CookieMiddleware) throws -> any HTTPTransport {
    try StandardPipeline.build(over: transport, options: StandardOptions(cookies: cookies).observedByDemo())
}

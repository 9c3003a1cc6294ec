import Foundation
import HTTPPipeline
import HTTPPipelineCookies
import HTTPPipelineCurl
import HTTPPipelineRedirect
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// `CookieMiddleware` over real servers and both transports: a session cookie, the cookies a 3xx
/// sets, origins kept apart, the caller's own field, and decisions in the response context.
@Suite struct CookieMiddlewareLoopbackTests {
    static let transports = ["CurlTransport", "URLSessionTransport"]

    let serverA = LoopbackServer()
    let serverB = LoopbackServer()

    init() throws {
        serverA.route(
            "GET", "/login",
            .init(headers: [
                ("Set-Cookie", "session=s3ss10n; Path=/; HttpOnly"),
                ("Set-Cookie", "seen=Wed; Expires=Wed, 09 Jun 2100 10:18:14 GMT"),
            ]))
        serverA.route("GET", "/me", .init(status: 200))
        serverA.route("GET", "/start", .init(status: 302, headers: [("Location", "/next"), ("Set-Cookie", "step=1")]))
        serverA.route("GET", "/next", .init(status: 200))
        serverA.route("GET", "/insecure", .init(headers: [("Set-Cookie", "token=1; Secure")]))
        try serverA.start()
        serverB.route("GET", "/land", .init(status: 200))
        try serverB.start()
        serverA.route(
            "GET", "/away",
            .init(status: 302, headers: [("Location", serverB.baseURL.appendingPathComponent("land").absoluteString)]))
    }

    func pipeline(_ transport: String, jar: CookieJar) -> any HTTPTransport {
        func build(_ transport: some HTTPTransport) -> any HTTPTransport {
            Pipeline(transport: transport) {
                RedirectMiddleware()
                CookieMiddleware(jar: jar)
            }
        }
        return transport == "CurlTransport" ? build(CurlTransport()) : build(URLSessionTransport())
    }

    func get(_ server: LoopbackServer, _ path: String) -> HTTPRequest {
        HTTPRequest(url: server.baseURL.appendingPathComponent(path))
    }

    @Test(arguments: transports)
    func aSessionCookieFromLoginGoesWithEveryLaterCall(transport: String) async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let jar = CookieJar()
        let client = pipeline(transport, jar: jar)

        let login = try await client.send(get(serverA, "login"))
        _ = try await client.send(get(serverA, "me"))

        #expect(login.cookieDecisions.map(\.description) == ["session: stored", "seen: stored"])
        #expect(serverA.requests.last?.header("Cookie") == "session=s3ss10n; seen=Wed")
    }

    @Test(arguments: transports)
    func aCookieA3xxSetsReachesTheNextHop(transport: String) async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }

        let response = try await pipeline(transport, jar: CookieJar()).send(get(serverA, "start"))

        #expect(response.status == 200)
        #expect(serverA.requests.map(\.path) == ["/start", "/next"])
        #expect(serverA.requests.last?.header("Cookie") == "step=1")
    }

    @Test(arguments: transports)
    func aRedirectToAnotherOriginCarriesNoCookieOfTheFirst(transport: String) async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let client = pipeline(transport, jar: CookieJar())
        _ = try await client.send(get(serverA, "login"))

        let landed = try await client.send(get(serverA, "away"))
        _ = try await client.send(get(serverA, "me"))

        #expect(landed.status == 200)
        #expect(serverB.requests.map(\.path) == ["/land"])
        #expect(serverB.requests.last?.header("Cookie") == nil, "127.0.0.1 on another port is another origin")
        #expect(serverA.requests.last?.header("Cookie") == "session=s3ss10n; seen=Wed")
    }

    @Test func theCallersOwnCookieFieldIsSentAsItIsWithNothingAdded() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let client = pipeline("CurlTransport", jar: CookieJar())
        _ = try await client.send(get(serverA, "login"))
        var request = get(serverA, "me")
        request.fields[.cookie] = "mine=1"

        _ = try await client.send(request)

        #expect(serverA.requests.last?.headerValues("Cookie") == ["mine=1"])
    }

    @Test func aRefusedCookieSaysWhyAndIsNeverSent() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let client = pipeline("CurlTransport", jar: CookieJar())

        let response = try await client.send(get(serverA, "insecure"))
        _ = try await client.send(get(serverA, "me"))

        #expect(response.cookieDecisions.first?.refusal == .secureFromInsecure)
        #expect(serverA.requests.last?.header("Cookie") == nil)
    }

    @Test func outsideRedirectsTheMiddlewareIsDiagnosed() throws {
        let wrong = Pipeline(transport: ScriptedTransport([])) {
            CookieMiddleware()
            RedirectMiddleware()
        }
        let right = Pipeline(transport: ScriptedTransport([])) {
            RedirectMiddleware()
            CookieMiddleware()
        }

        #expect(wrong.orderingDiagnostics.contains { "\($0)".contains("each hop must carry its own URL's cookies") })
        #expect(right.orderingDiagnostics.isEmpty)
    }
}

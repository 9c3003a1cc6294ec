import Foundation
import HTTPPipeline
import HTTPPipelineCache
import HTTPPipelineCookies
import HTTPPipelineRedirect
import HTTPPipelineTesting
import Testing

/// The cookie rows of the ordering guide: each pair built in both orders, the difference shown.
@Suite struct CookiePlacementTests {
    static let site = URL(string: "https://shop.example/") ?? URL(fileURLWithPath: "/")

    /// `/start` answers 302 to `/next` and sets `step=1`; each answer's body is the `Cookie` the
    /// request carried.
    static func redirectingServer() -> ScriptedTransport {
        ScriptedTransport { request in
            if request.url.path == "/start" {
                return .status(302, headers: ["Location": "/next", "Set-Cookie": "step=1"])
            }
            return .status(200, body: Data((request.fields[.cookie] ?? "none").utf8))
        }
    }

    @Test func ckInsideRedirectsACookieA3xxSetsReachesTheNextHopAndOutsideItDoesNot() async throws {
        let inside = Pipeline(transport: Self.redirectingServer()) {
            RedirectMiddleware()
            CookieMiddleware()
        }
        let outside = Pipeline(transport: Self.redirectingServer()) {
            CookieMiddleware()
            RedirectMiddleware()
        }
        let request = HTTPRequest(url: Self.site.appendingPathComponent("start"))

        let withInside = try await inside.send(request).body.collect(upTo: 1 << 10)
        let withOutside = try await outside.send(request).body.collect(upTo: 1 << 10)

        #expect(String(decoding: withInside, as: UTF8.self) == "step=1")
        #expect(String(decoding: withOutside, as: UTF8.self) == "none")
        #expect(inside.orderingDiagnostics.isEmpty)
        #expect(!outside.orderingDiagnostics.isEmpty)
    }

    /// `/me` answers a private, cacheable response whose body is the `Cookie` it got.
    static func privateServer() -> ScriptedTransport {
        ScriptedTransport { request in
            .status(
                200, headers: ["Cache-Control": "private, max-age=60"],
                body: Data((request.fields[.cookie] ?? "none").utf8))
        }
    }

    @Test func ckOutsideTheCacheTheNextUserNeverGetsThePreviousUsersResponseAndInsideItDoes() async throws {
        func run(cookiesOutside: Bool) async throws -> [String] {
            let jar = CookieJar()
            let cookies = CookieMiddleware(jar: jar)
            let cache = CacheMiddleware()
            let layers: [any HTTPMiddleware] = cookiesOutside ? [cookies, cache] : [cache, cookies]
            let client = Pipeline(transport: Self.privateServer(), middleware: layers)
            let me = HTTPRequest(url: Self.site.appendingPathComponent("me"))
            jar.receive(setCookie: "sid=alice", from: Self.site)
            let first = try await client.send(me).body.collect(upTo: 1 << 10)
            jar.removeAll()
            jar.receive(setCookie: "sid=bob", from: Self.site)
            let second = try await client.send(me).body.collect(upTo: 1 << 10)
            return [first, second].map { String(decoding: $0, as: UTF8.self) }
        }

        #expect(try await run(cookiesOutside: true) == ["sid=alice", "sid=bob"])
        #expect(try await run(cookiesOutside: false) == ["sid=alice", "sid=alice"], "bob is served alice's page")
    }
}

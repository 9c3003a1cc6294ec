import Foundation
import HTTPPipeline
import HTTPPipelineRedirect
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Two real servers on different ports, the real `URLSessionTransport`: what reaches the other
/// origin when the first one redirects.
@Suite struct RedirectLoopbackTests {
    static let serverCookie = "a_session=SET-BY-A"

    /// A session of its own whose cookie storage is its own too (an ephemeral configuration's, in
    /// memory), so what it stores is this test's.
    static func transport() -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .always
        configuration.httpShouldSetCookies = true
        return URLSessionTransport(configuration: configuration, handlesCookies: true)
    }

    /// Below the pipeline too: the transport sends a stored cookie only to the origin that set
    /// it, so a cookie A set never reaches another port of A's host (cookie storages key cookies
    /// by host alone, RFC 6265 §8.5), redirected there or not.
    @Test func aCookieTheFirstServerSetNeverReachesAnotherPortOfItsHostByRedirectOrLater() async throws {
        let serverA = LoopbackServer()
        let serverB = LoopbackServer()
        try serverB.start()
        defer { serverB.stop() }
        serverA.route(
            "GET", "/start",
            .init(
                status: 302,
                headers: [("Location", "\(serverB.baseURL)/landing"), ("Set-Cookie", Self.serverCookie + "; Path=/")]))
        serverA.route("GET", "/again", .init(body: Data("a".utf8)))
        serverB.route("GET", "/landing", .init(body: Data("landed".utf8)))
        try serverA.start()
        defer { serverA.stop() }
        let pipeline = Pipeline(transport: Self.transport()) { RedirectMiddleware() }
        _ = try await pipeline.send(HTTPRequest(url: serverA.baseURL.appending(path: "start")))
        _ = try await pipeline.send(HTTPRequest(url: serverB.baseURL.appending(path: "landing")))
        _ = try await pipeline.send(HTTPRequest(url: serverA.baseURL.appending(path: "again")))
        #expect(serverB.requests.map(\.path) == ["/landing", "/landing"])
        #expect(serverB.requests.allSatisfy { $0.headerValues("Cookie").isEmpty }, "B received 0 cookies")
        #expect(serverA.requests.last?.header("Cookie") == Self.serverCookie, "A gets its cookie back")
    }
}

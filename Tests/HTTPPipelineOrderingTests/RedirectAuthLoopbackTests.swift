import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineLogging
import HTTPPipelineRedirect
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Two real servers on different ports, the real `URLSessionTransport`: what reaches the other
/// origin when the first one redirects.
@Suite struct RedirectAuthLoopbackTests {
    static let token = "A-ONLY-t0ken"
    static let callerCookie = "caller=C00KIE-for-A"
    static let serverCookie = "a_session=SET-BY-A"

    @Test func aCrossOriginRedirectToAnotherServerCarriesNoCredentialAndNoCookieOfTheFirst() async throws {
        let serverA = LoopbackServer()
        let serverB = LoopbackServer()
        try serverB.start()
        defer { serverB.stop() }
        // Both on 127.0.0.1: one host, two ports, two origins; A's cookies must not reach B.
        let base = serverB.baseURL
        let setCookie = ("Set-Cookie", Self.serverCookie + "; Path=/")
        serverA.route("GET", "/start", .init(status: 302, headers: [("Location", "\(base)/landing"), setCookie]))
        serverA.route("POST", "/submit", .init(status: 307, headers: [("Location", "\(base)/receive"), setCookie]))
        serverA.route("GET", "/again", .init(body: Data("a".utf8)))
        serverB.route("GET", "/landing", .init(body: Data("landed".utf8)))
        serverB.route("POST", "/receive", .init(body: Data("received".utf8)))
        try serverA.start()
        defer { serverA.stop() }

        let sink = InMemoryLogSink()
        // A session whose cookie storage is its own (an ephemeral configuration's, in memory).
        let session = URLSessionConfiguration.ephemeral
        session.httpCookieAcceptPolicy = .always
        let pipeline = Pipeline(transport: URLSessionTransport(configuration: session, handlesCookies: true)) {
            RedirectMiddleware()
            AuthMiddleware(source: FixedCredential(.bearer(Self.token)))
            LoggingMiddleware(level: .headers, sink: sink)
        }
        var get = HTTPRequest(url: serverA.baseURL.appending(path: "start"))
        get.fields["Cookie"] = Self.callerCookie
        let landed = try await pipeline.send(get)
        #expect(landed.status == 200)
        #expect(try await landed.body.collect(upTo: 100) == Data("landed".utf8))

        var post = HTTPRequest(
            method: .post, url: serverA.baseURL.appending(path: "submit"), body: HTTPBody(Data("form".utf8)))
        post.fields["Cookie"] = Self.callerCookie
        post.fields["Content-Type"] = "text/plain"
        let received = try await pipeline.send(post)
        #expect(received.status == 200)
        #expect(try await received.body.collect(upTo: 100) == Data("received".utf8))

        let atA = serverA.requests
        let atB = serverB.requests
        #expect(atA.map(\.path) == ["/start", "/submit"])
        #expect(atA.allSatisfy { $0.header("Authorization") == "Bearer \(Self.token)" }, "A gets the credential")
        // A caller's Cookie field goes as the caller set it, with no stored cookie added or put instead.
        #expect(atA.allSatisfy { $0.headerValues("Cookie") == [Self.callerCookie] }, "and the caller's cookie")
        #expect(atB.map(\.method) == ["GET", "POST"], "the 302 became a GET, the 307 stayed a POST")
        #expect(atB.last?.body == Data("form".utf8), "the 307 kept its body")
        let credentials = atB.filter { $0.header("Authorization") != nil || $0.header("Proxy-Authorization") != nil }
        let cookies = atB.filter { !$0.headerValues("Cookie").isEmpty }
        #expect(credentials.isEmpty, "B received 0 credentials: \(atB.map(\.headers))")
        #expect(cookies.isEmpty, "B received 0 cookies: \(atB.map(\.headers))")
        #expect(sink.records.map(\.outcome) == [302, 200, 307, 200].map { .response(status: $0) }, "each hop logged")

        // The transport kept A's cookie: the next request to A carries it, none to B does.
        _ = try await pipeline.send(HTTPRequest(url: serverA.baseURL.appending(path: "again")))
        #expect(serverA.requests.last?.header("Cookie")?.contains(Self.serverCookie) == true, "A's cookie was stored")
        #expect(!serverB.requests.contains { $0.headers.contains { $0.value.contains("SET-BY-A") } })
    }
}

/// A credential source with one credential that never changes.
struct FixedCredential: CredentialSource {
    let credential: Credential

    init(_ credential: Credential) {
        self.credential = credential
    }

    func currentCredential() async throws -> Credential? { credential }

    func refreshCredential(after failed: Credential?) async throws -> Credential { credential }
}

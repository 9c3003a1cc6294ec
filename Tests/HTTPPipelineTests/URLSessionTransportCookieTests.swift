import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The compatibility switch (`handlesCookies: true`): cookies kept to the origin (scheme, host,
/// port) that set them, through `URLSessionTransport` and two real servers on one host
/// (127.0.0.1) with different ports; and none at all by default.
@Suite struct URLSessionTransportCookieTests {
    static let setByA = "a_session=SET-BY-A"

    let serverA = LoopbackServer()
    let serverB = LoopbackServer()

    init() throws {
        serverA.route("GET", "/login", .init(headers: [("Set-Cookie", Self.setByA + "; Path=/")]))
        serverA.route("GET", "/echo", .init(body: Data("a".utf8)))
        serverB.route("GET", "/echo", .init(body: Data("b".utf8)))
        try serverA.start()
        try serverB.start()
    }

    /// A transport with a session and a cookie storage of its own (an ephemeral configuration's:
    /// in memory, never written to disk); `configure` adjusts its configuration.
    static func transport(
        followsRedirects: Bool = false, _ configure: (URLSessionConfiguration) -> Void = { _ in }
    ) throws -> (URLSessionTransport, HTTPCookieStorage) {
        let configuration = URLSessionConfiguration.ephemeral
        let storage = try #require(configuration.httpCookieStorage)
        configuration.httpCookieAcceptPolicy = .always
        configuration.httpShouldSetCookies = true
        configure(configuration)
        return (
            URLSessionTransport(configuration: configuration, followsRedirects: followsRedirects, handlesCookies: true),
            storage
        )
    }

    func get(_ server: LoopbackServer, _ path: String, cookie: String? = nil) -> HTTPRequest {
        var request = HTTPRequest(url: server.baseURL.appendingPathComponent(path))
        if let cookie { request.fields["Cookie"] = cookie }
        return request
    }

    @Test func byDefaultTheTransportStoresNoCookieAndSendsNone() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        let storage = try #require(configuration.httpCookieStorage)
        for transport in [URLSessionTransport(), URLSessionTransport(configuration: configuration)] {
            #expect(!transport.handlesCookies)
            _ = try await transport.send(get(serverA, "login"))
            _ = try await transport.send(get(serverA, "echo"))
            #expect(serverA.requests.last?.header("Cookie") == nil)
        }
        #expect(storage.cookies?.isEmpty ?? true)
    }

    @Test func aCookieAServerSetIsSentBackToThatServerLater() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let (transport, _) = try Self.transport()
        _ = try await transport.send(get(serverA, "login"))
        _ = try await transport.send(get(serverA, "echo"))
        #expect(serverA.requests.map(\.path) == ["/login", "/echo"])
        #expect(serverA.requests.last?.header("Cookie") == Self.setByA)
    }

    @Test func aCookieSetInAFieldSpelledInLowerCaseIsKeptBoundToItsPort() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        serverA.route("GET", "/lower", .init(headers: [("set-cookie", "lower=SET-LOWER; Path=/")]))
        let (transport, storage) = try Self.transport()
        _ = try await transport.send(get(serverA, "lower"))
        _ = try await transport.send(get(serverA, "echo"))
        #expect(serverA.requests.last?.header("Cookie") == "lower=SET-LOWER")
        // Stored once, by the transport, bound to the port that set it.
        let stored = (storage.cookies ?? []).filter { $0.name == "lower" }
        #expect(stored.count == 1)
        #expect(stored.first?.portList?.map(\.intValue) == [serverA.port])
    }

    @Test func aCookieAServerSetNeverReachesAnotherPortOfItsHost() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let (transport, _) = try Self.transport()
        _ = try await transport.send(get(serverA, "login"))
        _ = try await transport.send(get(serverB, "echo"))
        #expect(serverB.requests.count == 1)
        #expect(serverB.requests.allSatisfy { $0.headerValues("Cookie").isEmpty }, "\(serverB.requests.map(\.headers))")
    }

    @Test func theCallersCookieFieldReachesTheServerUnchangedEvenWithACookieStoredForIt() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let (transport, _) = try Self.transport()
        let mine = "caller=MINE; other=2"
        _ = try await transport.send(get(serverA, "echo", cookie: mine))
        _ = try await transport.send(get(serverA, "login"))
        _ = try await transport.send(get(serverA, "echo", cookie: mine))
        _ = try await transport.send(get(serverB, "echo", cookie: mine))
        #expect(serverA.requests.map { $0.headerValues("Cookie") } == [[mine], [], [mine]])
        #expect(serverB.requests.map { $0.headerValues("Cookie") } == [[mine]])
    }

    @Test func anAcceptPolicyOfNeverStoresNothingAndSendsNothing() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let (transport, storage) = try Self.transport { $0.httpCookieAcceptPolicy = .never }
        _ = try await transport.send(get(serverA, "login"))
        _ = try await transport.send(get(serverA, "echo"))
        #expect(storage.cookies?.isEmpty ?? true)
        #expect(serverA.requests.last?.headerValues("Cookie") == [])
    }

    @Test func withoutHTTPShouldSetCookiesNoStoredCookieIsSent() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let (transport, storage) = try Self.transport { $0.httpShouldSetCookies = false }
        let seeded = try #require(
            HTTPCookie(properties: [.domain: "127.0.0.1", .path: "/", .name: "seeded", .value: "1"]))
        storage.setCookie(seeded)
        _ = try await transport.send(get(serverA, "echo"))
        #expect(serverA.requests.last?.headerValues("Cookie") == [])
    }

    @Test func withoutHTTPShouldSetCookiesAResponsesCookieIsNotStoredEither() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        // Cookies off means none stored: FoundationNetworking's own handling stored them anyway.
        let (transport, storage) = try Self.transport { $0.httpShouldSetCookies = false }
        _ = try await transport.send(get(serverA, "login"))
        #expect(storage.cookies?.isEmpty ?? true, "\(storage.cookies ?? [])")
    }

    @Test func aSecureCookieIsNeverSentOverPlainHTTP() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let (transport, storage) = try Self.transport()
        let secure = try #require(
            HTTPCookie(properties: [
                .domain: "127.0.0.1", .path: "/", .name: "secure", .value: "S", .secure: "TRUE",
            ]))
        let plain = try #require(
            HTTPCookie(properties: [.domain: "127.0.0.1", .path: "/", .name: "plain", .value: "P"]))
        storage.setCookie(secure)
        storage.setCookie(plain)
        _ = try await transport.send(get(serverA, "echo"))
        #expect(serverA.requests.last?.headerValues("Cookie") == ["plain=P"])
    }

    @Test func aCookieIsSentOnlyUnderItsPath() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        serverA.route("GET", "/account/login", .init(headers: [("Set-Cookie", "acct=1; Path=/account")]))
        serverA.route("GET", "/account/me", .init())
        let (transport, _) = try Self.transport()
        _ = try await transport.send(get(serverA, "account/login"))
        _ = try await transport.send(get(serverA, "echo"))
        _ = try await transport.send(get(serverA, "account/me"))
        #expect(serverA.requests.map { $0.headerValues("Cookie") } == [[], [], ["acct=1"]])
    }

    @Test func aCookieStoredByHandWithoutAPortGoesToEveryPortOfItsDomain() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let (transport, storage) = try Self.transport()
        let seeded = try #require(
            HTTPCookie(properties: [.domain: "127.0.0.1", .path: "/", .name: "seeded", .value: "1"]))
        storage.setCookie(seeded)
        _ = try await transport.send(get(serverA, "echo"))
        _ = try await transport.send(get(serverB, "echo"))
        #expect(serverA.requests.last?.headerValues("Cookie") == ["seeded=1"])
        #expect(serverB.requests.last?.headerValues("Cookie") == ["seeded=1"])
    }

    @Test func aRedirectURLSessionFollowsToAnotherPortCarriesNoCookieOfTheFirst() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        serverA.route(
            "GET", "/hop",
            .init(
                status: 302,
                headers: [("Location", "\(serverB.baseURL)/echo"), ("Set-Cookie", "hop=FROM-A; Path=/")]))
        let (transport, _) = try Self.transport(followsRedirects: true)
        _ = try await transport.send(get(serverA, "login"))
        let response = try await transport.send(get(serverA, "hop"))
        #expect(response.status == 200)
        #expect(try await response.body.collect(upTo: 10) == Data("b".utf8))
        #expect(serverA.requests.last?.header("Cookie") == Self.setByA, "A gets its own cookie")
        #expect(serverB.requests.map { $0.headerValues("Cookie") } == [[]], "\(serverB.requests.map(\.headers))")
        _ = try await transport.send(get(serverA, "echo"))
        let atA = serverA.requests.last?.header("Cookie")?.split(separator: ";").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(Set(atA ?? []) == [Self.setByA, "hop=FROM-A"], "the 302's cookie was kept for A")
    }

    @Test(arguments: ["Expires=Thu, 01 Jan 1970 00:00:00 GMT", "Max-Age=0", "Max-Age=-5"])
    func aCookieTheServerExpiresIsNoLongerSent(expiry: String) async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        serverA.route("GET", "/logout", .init(headers: [("Set-Cookie", "a_session=; Path=/; \(expiry)")]))
        let (transport, _) = try Self.transport()
        _ = try await transport.send(get(serverA, "login"))
        _ = try await transport.send(get(serverA, "logout"))
        _ = try await transport.send(get(serverA, "echo"))
        #expect(serverA.requests.map { $0.headerValues("Cookie") } == [[], [Self.setByA], []])
    }

    @Test func aCookieWithAMaxAgeIsKeptAndSentUntilItExpires() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        serverA.route("GET", "/remember", .init(headers: [("Set-Cookie", "remember=1; Path=/; Max-Age=3600")]))
        let (transport, storage) = try Self.transport()
        // Bounds taken around the exchange, not after it: a loaded machine (the thread
        // sanitizer's run) can pause this test for minutes.
        let sent = Date()
        _ = try await transport.send(get(serverA, "remember"))
        let received = Date()
        _ = try await transport.send(get(serverA, "echo"))
        #expect(serverA.requests.last?.headerValues("Cookie") == ["remember=1"])
        let expires = try #require(storage.cookies?.first?.expiresDate)
        #expect(expires >= sent.addingTimeInterval(3_599) && expires <= received.addingTimeInterval(3_601))
    }

    @Test func aTransportMadeFromAnotherTransportsSessionSendsCookiesAsThatOneDoes() async throws {
        defer { serverA.stop() }
        defer { serverB.stop() }
        let (first, _) = try Self.transport()
        let second = URLSessionTransport(session: first.session)
        _ = try await second.send(get(serverA, "login"))
        _ = try await second.send(get(serverA, "echo"))
        _ = try await second.send(get(serverB, "echo"))
        #expect(serverA.requests.last?.headerValues("Cookie") == [Self.setByA])
        #expect(serverB.requests.last?.headerValues("Cookie") == [])
    }

    @Test func theCallersConfigurationIsLeftAsItWas() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = true
        configuration.httpCookieAcceptPolicy = .always
        let transport = URLSessionTransport(configuration: configuration)
        #expect(configuration.httpShouldSetCookies)
        #expect(configuration.httpCookieAcceptPolicy == .always)
        #expect(!transport.session.configuration.httpShouldSetCookies, "the transport sets cookies, not URLSession")
        #expect(transport.session.configuration.httpCookieAcceptPolicy == .never, "and stores them, not URLSession")
    }
}

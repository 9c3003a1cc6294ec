import Foundation
import HTTPPipelineCookies
import Testing

/// RFC 6265bis §5.7 steps 13, 16, 20 to 22 and §5.8.3: `Secure`, the rule that leaves secure
/// cookies alone, and the `__Secure-` and `__Host-` prefixes.
@Suite struct CookieSecureTests {
    static let https = "https://site.example/"

    static let cases: [CookieVector] = [
        .at("http://h.example/", "0010: Secure from http is refused", ["foo=bar; secure;"], nil),
        .at(https, "§4.1.3.1: __Secure- needs Secure", ["__Secure-SID=12345"], nil),
        .at("http://site.example/", "__Secure- from http", ["__Secure-SID=12345; Secure"], nil),
        .at(
            https, "§5.4: the prefix in any case", ["__secure-SID=12345; Domain=site.example; Secure"],
            "__secure-SID=12345"),
        .at(https, "§5.4: __SECURE- without Secure", ["__SECURE-SID=12345; Domain=site.example"], nil),
        .at(
            https, "§4.1.3.2: __Host- with Secure and Path=/", ["__Host-SID=12345; Secure; Path=/"], "__Host-SID=12345"),
        .at(
            https, "__HOST- is the same prefix, another name",
            ["__Host-SID=1; Secure; Path=/", "__HOST-SID=2; Secure; Path=/"], "__Host-SID=1; __HOST-SID=2"),
        .at(https, "__Host- without Secure", ["__Host-SID=12345"], nil),
        .at(https, "__host- without Path", ["__host-SID=12345; Secure"], nil),
        .at(https, "__Host- with a Domain", ["__Host-SID=12345; Secure; Domain=site.example; Path=/"], nil),
        .at(https, "§5.7 step 21.3: the last Path counts", ["__Host-a=1; Secure; Path=/x; Path=/"], "__Host-a=1"),
        .at(
            "http://site.example/", "WPT: an encoded prefix is no prefix", ["__%53ecure-test=11"], "__%53ecure-test=11"),
        .at(https, "§5.7 step 22: a nameless __Secure- value", ["=__Secure-x=1; Secure"], nil),
        .at(https, "§5.7 step 22: a nameless __Host- value", ["__Host-x; Secure; Path=/"], nil),
        .at(https, "§5.7 step 22: only names and nameless values", ["x=__Secure-1"], "x=__Secure-1"),
    ]

    @Test(arguments: cases)
    func section5_7SecureAndPrefixedCookiesComeOnlyFromSecureConnections(vector: CookieVector) {
        #expect(vector.run() == vector.expected)
    }

    func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test func section5_8_3ASecureCookieNeverGoesOverHTTP() throws {
        let jar = CookieJar(now: { CookieVector.now })
        jar.receive(setCookie: "a=1; Secure", from: try url("https://h.example/"))

        #expect(jar.cookieField(for: try url("http://h.example/")) == nil)
        #expect(jar.cookieField(for: try url("https://h.example/")) == "a=1")
        #expect(jar.cookieField(for: try url("wss://h.example/")) == "a=1")
    }

    @Test func section5_7Step16AnInsecureCookieNeverOverlaysASecureOne() throws {
        // The draft's sharing across ports (and so across http and https), to see the rule alone.
        let jar = CookieJar(options: CookieJar.Options(bindsToPort: false), now: { CookieVector.now })
        jar.receive(setCookie: "a=1; Secure; Path=/login", from: try url("https://h.example/"))

        let broader = jar.receive(setCookie: "a=2; Path=/", from: try url("http://h.example/"))
        let overlay = jar.receive(setCookie: "a=3; Path=/login/en", from: try url("http://h.example/"))
        jar.receive(setCookie: "b=1; Secure; Domain=h.example", from: try url("https://h.example/"))
        let subdomain = jar.receive(setCookie: "b=2", from: try url("http://www.h.example/"))
        let overHTTPS = jar.receive(setCookie: "a=4; Path=/login", from: try url("https://h.example/"))

        #expect(broader.isStored)
        #expect(overlay.refusal == .overlaysSecure)
        #expect(subdomain.refusal == .overlaysSecure)
        #expect(overHTTPS.isStored)
        #expect(jar.cookieField(for: try url("https://h.example/login")) == "a=4; a=2; b=1")
    }

    @Test func aCookieGoesOnlyToThePortThatSetItUnlessTheJarSharesPorts() throws {
        let bound = CookieJar(now: { CookieVector.now })
        let shared = CookieJar(options: CookieJar.Options(bindsToPort: false), now: { CookieVector.now })
        for jar in [bound, shared] {
            jar.receive(setCookie: "a=1; Domain=h.example", from: try url("http://www.h.example:8080/"))
        }

        #expect(bound.cookieField(for: try url("http://api.h.example:8080/")) == "a=1")
        #expect(bound.cookieField(for: try url("http://www.h.example:8081/")) == nil)
        #expect(bound.cookieField(for: try url("http://www.h.example/")) == nil)
        #expect(shared.cookieField(for: try url("http://www.h.example:8081/")) == "a=1")
    }

    @Test func loopbackCountsAsSecureOnlyWhenTheJarIsToldTo() throws {
        let strict = CookieJar(now: { CookieVector.now })
        let trusting = CookieJar(options: CookieJar.Options(trustsLoopback: true), now: { CookieVector.now })
        let local = try url("http://127.0.0.1:8080/")

        #expect(strict.receive(setCookie: "a=1; Secure", from: local).refusal == .secureFromInsecure)
        #expect(trusting.receive(setCookie: "a=1; Secure", from: local).isStored)
        #expect(trusting.cookieField(for: local) == "a=1")
        #expect(trusting.cookieField(for: try url("http://localhost:8080/")) == nil)
    }
}

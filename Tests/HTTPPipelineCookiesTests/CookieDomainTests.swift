import Foundation
import HTTPPipeline
import HTTPPipelineCookies
import Testing

/// RFC 6265bis §5.1.2, §5.1.3 and §5.7 steps 7 to 10: `Domain`, host-only cookies, IP hosts and
/// public suffixes.
@Suite struct CookieDomainTests {
    static let sibling = "http://sibling.example.org:8888/cookie-parser-result"
    static let subdomain = "http://subdomain.home.example.org:8888/cookie-parser-result"

    static let domains: [CookieVector] = [
        .h("DOMAIN0001", ["foo=bar; domain=home.example.org"], "foo=bar"),
        .h("DOMAIN0002", ["foo=bar; domain=home.example.org"], to: sibling, nil),
        .h("DOMAIN0003: one leading dot is dropped", ["foo=bar; domain=.home.example.org"], "foo=bar"),
        .h("DOMAIN0005", ["foo=bar; domain=.home.example.org"], to: subdomain, "foo=bar"),
        .h("DOMAIN0007: another host's domain", ["foo=bar; domain=sibling.example.org"], to: sibling, nil),
        .h("DOMAIN0009: a parent domain", ["foo=bar; domain=example.org"], "foo=bar"),
        .h("DOMAIN0010: two dots", ["foo=bar; domain=..home.example.org"], nil),
        .h("DOMAIN0012: whitespace is trimmed", ["foo=bar; domain=  .home.example.org"], "foo=bar"),
        .h("DOMAIN0013", ["foo=bar; domain=  .  home.example.org"], nil),
        .h("DOMAIN0014: a trailing dot", ["foo=bar; domain=home.example.org."], nil),
        .h("DOMAIN0021: quotes are kept", ["foo=bar; domain=\"home.example.org\""], nil),
        .h("DOMAIN0026: lowercased", ["foo=bar; domain=home.eXaMpLe.org"], "foo=bar"),
        .h(
            "DOMAIN0033: the host is canonicalized", ["foo=bar; domain=home.example.org"],
            to: "http://hoMe.eXaMplE.org:8888/cookie-parser-result", "foo=bar"),
        .h("DOMAIN0027: a port is not a domain", ["foo=bar; domain=home.example.org:8888"], nil),
        .h("DOMAIN0028: a subdomain of the host", ["foo=bar; domain=subdomain.home.example.org"], to: subdomain, nil),
        .h("DOMAIN0029: host-only by default", ["foo=bar"], to: subdomain, nil),
        .h("OPTIONAL_DOMAIN0030: an empty Domain is host-only", ["foo=bar; domain="], "foo=bar"),
        .h(
            "§5.6.3: the last Domain, empty, makes it host-only", ["foo=bar; domain=foo.example.org; domain="],
            "foo=bar"),
        .h(
            "DOMAIN0024: the last Domain wins", ["foo=bar; domain=.example.org; domain=home.example.org"], to: sibling,
            nil),
        .h("DOMAIN0025", ["foo=bar; domain=home.example.org; domain=.example.org"], to: sibling, "foo=bar"),
        .h("DOMAIN0034", ["foo=bar; domain=home.example.org; domain=home.example.com"], nil),
        .h("DOMAIN0035", ["foo=bar; domain=home.example.com; domain=home.example.org"], "foo=bar"),
        .h(
            "DOMAIN0019", ["foo=bar; domain=home.example.org", "foo2=bar2; domain=.home.example.org"],
            "foo=bar; foo2=bar2"),
        .h("§5.7 step 8: a Domain outside ASCII", ["a=1; Domain=exämple.org"], nil),
        .at("http://192.168.0.10/", "§5.1.3: an IP is its own domain", ["a=1; Domain=192.168.0.10"], "a=1"),
        .at("http://192.168.0.10/", "§5.1.3: an IP is never suffix-matched", ["a=1; Domain=168.0.10"], nil),
        .at("http://[::1]:8080/", "IPv6 hosts keep host-only cookies", ["a=1"], "a=1"),
    ]

    @Test(arguments: domains)
    func section5_7ADomainIsTakenOnlyWhenTheHostIsWithinIt(vector: CookieVector) {
        #expect(vector.run() == vector.expected)
    }

    @Test func section5_7Step23AHostOnlyCookieAndADomainCookieOfOneNameAreTwo() throws {
        let jar = CookieJar(now: { CookieVector.now })
        let site = try #require(URL(string: "http://example.com/"))
        jar.receive(setCookie: "a=1", from: site)
        jar.receive(setCookie: "a=2; Domain=example.com", from: site)

        #expect(jar.cookieField(for: site) == "a=1; a=2")
        #expect(jar.cookieField(for: try #require(URL(string: "http://www.example.com/"))) == "a=2")
    }

    @Test(.enabled(if: libpslLoaded, "needs libpsl.so.5, which the Swift toolchain's libcurl brings"))
    func section5_7Step9APublicSuffixIsRefusedUnlessItIsTheHostItself() throws {
        let jar = CookieJar(now: { CookieVector.now })
        let home = try #require(URL(string: "http://home.example.org/"))
        let github = try #require(URL(string: "https://me.github.io/"))
        let com = try #require(URL(string: "https://com/"))

        #expect(jar.receive(setCookie: "a=1; Domain=org", from: home).refusal == .publicSuffix)
        #expect(jar.receive(setCookie: "b=1; Domain=.org", from: home).refusal == .publicSuffix)
        #expect(jar.receive(setCookie: "c=1; Domain=github.io", from: github).refusal == .publicSuffix)
        #expect(
            jar.receive(setCookie: "d=1; Domain=co.uk", from: try #require(URL(string: "https://bbc.co.uk/"))).refusal
                == .publicSuffix)
        #expect(jar.receive(setCookie: "e=1; Domain=com", from: com).cookie?.isHostOnly == true)
        #expect(jar.cookieField(for: com) == "e=1")
        #expect(jar.cookieField(for: try #require(URL(string: "https://x.com/"))) == nil)
        #expect(PublicSuffixes.libpsl.source.hasPrefix("libpsl"))
    }

    @Test func withoutASuffixListEveryDomainCookieIsKeptToItsHostAndThatIsToldOnce() throws {
        let notices = Locked<[String]>([])
        let jar = CookieJar(
            options: CookieJar.Options(
                publicSuffixes: .unavailable, onMissingSuffixList: { note in notices.withLock { $0.append(note) } }),
            now: { CookieVector.now })
        let home = try #require(URL(string: "http://home.example.org/"))

        let first = jar.receive(setCookie: "a=1; Domain=example.org", from: home)
        let second = jar.receive(setCookie: "b=1; Domain=org", from: home)
        let foreign = jar.receive(setCookie: "c=1; Domain=other.example", from: home)

        #expect(first.keptHostOnlyWithoutSuffixList && first.cookie?.isHostOnly == true)
        #expect(second.cookie?.isHostOnly == true)
        #expect(foreign.refusal == .domainMismatch)
        #expect(jar.cookieField(for: home) == "a=1; b=1")
        #expect(jar.cookieField(for: try #require(URL(string: "http://www.example.org/"))) == nil)
        #expect(notices.value.count == 1)
    }

    @Test func aSuffixListOfYourOwnIsAsked() throws {
        let jar = CookieJar(
            options: CookieJar.Options(publicSuffixes: PublicSuffixes(source: "test list") { $0 == "example.org" }),
            now: { CookieVector.now })
        let home = try #require(URL(string: "http://home.example.org/"))

        #expect(jar.receive(setCookie: "a=1; Domain=example.org", from: home).refusal == .publicSuffix)
        #expect(jar.receive(setCookie: "b=1; Domain=home.example.org", from: home).isStored)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineCookies
import Testing

/// RFC 6265bis §5.6.1 to §5.6.7 and §5.7 steps 6, 11, 12, 17 and 19: each attribute, the last of
/// a kind winning.
@Suite struct CookieAttributeTests {
    static let attributes: [CookieVector] = [
        .h("ATTRIBUTE0003: a quoted name is another attribute", ["foo=bar; \"Secure\""], "foo=bar"),
        .h("ATTRIBUTE0004: Secure= counts as Secure, refused over http", ["foo=bar; Secure="], nil),
        .h("ATTRIBUTE0005", ["foo=bar; Secure=aaaa"], nil),
        .h("ATTRIBUTE0006", ["foo=bar; Secure qux"], "foo=bar"),
        .h("ATTRIBUTE0002: attribute names in any case", ["foo=bar; seCURe"], nil),
        .h("ATTRIBUTE0021: the last Path wins", ["foo=bar; Path=/qux; Path=/"], "foo=bar"),
        .h("ATTRIBUTE0022", ["foo=bar; Path=/; Path=/qux"], nil),
        .h("PATH0030: an empty Path is the default path", ["foo=bar; path=/dog; path="], "foo=bar"),
        .h("PATH0031", ["foo=bar; path=; path=/dog"], nil),
        .h("0007: unknown attributes are ignored", ["foo=bar; version=1;"], "foo=bar"),
        .h("0009", ["foo=bar; customvalue=\"1000 or more\";"], "foo=bar"),
        .h("MOZILLA0011", ["test=parser; domain=.parser.test; ;; ;=; ,,, ===,abc,=; abracadabra! max-age=20;=;;"], nil),
        .h("§5.6.7: an unknown SameSite is Default", ["a=1; SameSite=Bogus"], "a=1"),
        .h("§5.7 step 17: the last SameSite wins", ["a=1; SameSite=None; SameSite=xyz"], "a=1"),
        .h(
            "§5.7 step 18: every request of a client without a browsing context is same-site", ["a=1; SameSite=Strict"],
            "a=1"),
        .h("§5.7 step 19: SameSite=None needs Secure", ["a=1; SameSite=None"], nil),
        .at("https://x.example/", "§5.7 step 19: SameSite=None with Secure", ["a=1; SameSite=none; Secure"], "a=1"),
        .h("HttpOnly cookies are sent by an HTTP client", ["a=1; HttpOnly"], "a=1"),
    ]

    @Test(arguments: attributes)
    func section5_6AttributesAreReadAndTheLastOfAKindWins(vector: CookieVector) {
        #expect(vector.run() == vector.expected)
    }

    static let lifetimes: [CookieVector] = [
        .h("MOZILLA0001: Max-Age=0 deletes", ["foo=bar; max-age=0"], nil),
        .h("Max-Age=-1", ["foo=bar; max-age=-1"], nil),
        .h("§5.6.2: Max-Age=-0", ["a=1; Max-Age=-0"], nil),
        .h("COMMA0005: an invalid Max-Age is ignored", ["foo=bar; Max-Age=50,399"], "foo=bar"),
        .h("§5.6.2: +60", ["a=1; Max-Age=+60"], "a=1"),
        .h("§5.6.2: 1e3", ["a=1; Max-Age=1e3"], "a=1"),
        .h("§5.6.2: a lone minus", ["a=1; Max-Age=-"], "a=1"),
        .h("§5.6.2: a huge Max-Age is capped, not an overflow", ["a=1; Max-Age=999999999999999999999"], "a=1"),
        .h(
            "§5.7 step 6: Max-Age wins over a later Expires", ["a=1; Max-Age=0; Expires=Wed, 01 Jan 2098 00:00:00 GMT"],
            nil),
        .h(
            "§5.7 step 6: Max-Age wins over an earlier Expires",
            ["a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=60"], "a=1"),
        .h("MOZILLA0003: an Expires in the past deletes", ["foo=bar; expires=Thu, 10 Apr 1980 16:33:12 GMT"], nil),
        .h(
            "§5.7 step 6: an invalid Expires leaves the last valid one",
            ["a=1; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Expires=garbage"], nil),
        .h(
            "COMMA0007: ',' and '=' are date delimiters", ["test=2; Expires=Fri 01 Jan 2038 00:00:00 GMT, baz=qux"],
            "test=2"),
        .h(
            "MOZILLA0009", ["foo=bar; max-age=60", "foo1=bar; max-age=60", "foo=differentvalue; max-age=0"], "foo1=bar"),
        .h(
            "MOZILLA0012", ["test=\"fubar! = foo;bar\\\";\" parser; max-age=6", "five; max-age=2.63,"],
            "test=\"fubar! = foo; five"),
    ]

    @Test(arguments: lifetimes)
    func section5_6_1And5_6_2ExpiresAndMaxAgeSetTheLifetime(vector: CookieVector) {
        #expect(vector.run() == vector.expected)
    }

    @Test func section5_5ALifetimeIsCappedAt400DaysAndAnInvalidExpiresMakesASessionCookie() throws {
        let jar = CookieJar(now: { CookieVector.now })
        let url = try #require(URL(string: "https://api.example/"))

        let far = jar.receive(setCookie: "a=1; Expires=Fri, 01 Jan 2100 00:00:00 GMT", from: url).cookie
        let huge = jar.receive(setCookie: "b=1; Max-Age=999999999999999999999", from: url).cookie
        let sixty = jar.receive(setCookie: "c=1; Max-Age= 60 ", from: url).cookie
        let session = jar.receive(setCookie: "d=1; Expires=tomorrow", from: url).cookie

        #expect(far?.expires == CookieVector.now.addingTimeInterval(400 * 86_400))
        #expect(huge?.expires == CookieVector.now.addingTimeInterval(400 * 86_400))
        #expect(sixty?.expires == CookieVector.now.addingTimeInterval(60))
        #expect(session?.isPersistent == false)
    }

    @Test func aCookieExpiresWhenItsTimeComes() throws {
        let clock = Locked(CookieVector.now)
        let jar = CookieJar(now: { clock.value })
        let url = try #require(URL(string: "https://api.example/"))
        jar.receive(setCookie: "a=1; Max-Age=60", from: url)

        #expect(jar.cookieField(for: url) == "a=1")
        clock.withLock { $0 = $0.addingTimeInterval(60) }
        #expect(jar.cookieField(for: url) == nil)
        #expect(jar.allCookies.isEmpty)
    }
}

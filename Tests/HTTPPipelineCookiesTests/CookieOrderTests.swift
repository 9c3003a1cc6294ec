import Foundation
import HTTPPipeline
import HTTPPipelineCookies
import Testing

/// RFC 6265bis §5.8.3 (the `Cookie` field: order and form) and §5.7 step 23 (replacement keeps
/// the creation time).
@Suite struct CookieOrderTests {
    static let orders: [CookieVector] = [
        .h("PATH0001: longer paths first", ["a=b; path=/", "x=y; path=/cookie-parser-result"], "x=y; a=b"),
        .h(
            "PATH0032", ["foo=bar; path=/cookie-parser-result", "foo=qux; path=/cookie-parser-result/"],
            to: "http://home.example.org:8888/cookie-parser-result/dog", "foo=qux; foo=bar"),
        .h("0016: creation order, not names", ["z=y", "a=b"], "z=y; a=b"),
        .h(
            "ORDERING0001",
            [
                "key=val0;", "key=val1; path=/cookie-parser-result", "key=val2; path=/", "key=val3; path=/bar",
                "key=val4; domain=.example.org", "key=val5; domain=.example.org; path=/cookie-parser-result/foo",
            ], to: "http://home.example.org:8888/cookie-parser-result/foo/baz",
            "key=val5; key=val1; key=val2; key=val4"),
        .h("§5.7 step 23: a replacement keeps its place", ["a=1", "b=1", "a=2"], "a=2; b=1"),
        .h(
            "§3.1: a past Expires removes the cookie",
            ["lang=en-US; Max-Age=3600", "lang=; Expires=Sun, 06 Nov 1994 08:49:37 GMT"], nil),
        .h("§5.8.3 step 6: nameless, valueless, plain", ["abc", "x=", "y=1"], "abc; x=; y=1"),
        .at(
            "https://site.example/", "§3.1",
            ["SID=31d4d96e407aad42; Path=/; Secure; HttpOnly", "lang=en-US; Path=/; Domain=site.example"],
            "SID=31d4d96e407aad42; lang=en-US"),
    ]

    @Test(arguments: orders)
    func section5_8_3CookiesAreSentLongestPathFirstThenOldestFirst(vector: CookieVector) {
        #expect(vector.run() == vector.expected)
    }

    @Test func section5_8_3SendingACookieCountsAsUsingIt() throws {
        let clock = Locked(CookieVector.now)
        let jar = CookieJar(now: { clock.value })
        let url = try #require(URL(string: "https://api.example/"))
        jar.receive(setCookie: "a=1", from: url)
        clock.withLock { $0 = $0.addingTimeInterval(30) }

        _ = jar.cookieField(for: url)

        #expect(jar.allCookies.first?.lastAccessed == CookieVector.now.addingTimeInterval(30))
        #expect(jar.allCookies.first?.created == CookieVector.now)
    }
}

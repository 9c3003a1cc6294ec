import Foundation
import HTTPPipelineCookies
import Testing

/// RFC 6265bis §5.6: a `Set-Cookie` value split into name, value and attributes; §5.7 steps 2 to
/// 4 and §5.8.3 step 6 for what is kept and how it is sent back.
@Suite struct CookieParsingTests {
    static let nameValue: [CookieVector] = [
        .h("http-state 0001", ["foo=bar"], "foo=bar"),
        .h("http-state 0004: a nameless cookie", ["foo"], "foo"),
        .h("http-state 0020: '=' alone is neither name nor value", ["a=b", "=", "c=d"], "a=b; c=d"),
        .h("http-state 0021", ["a=b", "=x", "c=d"], "a=b; x; c=d"),
        .h("http-state 0022: an empty value keeps its '='", ["a=b", "x=", "c=d"], "a=b; x=; c=d"),
        .h("WPT: spaces around an attribute's '='", ["test1=;  path = /"], "test1="),
        .h("http-state NAME0017: a nameless value holding '='", ["=a=bar"], "a=bar"),
        .h("http-state NAME0025", ["===a=bar"], "==a=bar"),
        .h("WPT: whitespace around the name is trimmed", ["test =3"], "test=3"),
        .h("WPT: leading whitespace", ["   test=4"], "test=4"),
        .h("http-state NAME0030: inner space kept", ["foo bar=baz"], "foo bar=baz"),
        .h("http-state NAME0019: a quote in the name", ["\"a=bar"], "\"a=bar"),
        .h("http-state NAME0031: ';' ends the pair even in quotes", ["\"foo;bar\"=baz"], "\"foo"),
        .h("http-state NAME0023", ["foo;bar=baz"], "foo"),
        .h("http-state NAME0024", ["$Version=1; foo=bar"], "$Version=1"),
        .h("http-state NAME0033: two nameless cookies replace each other", ["=foo=bar", "aaa"], "aaa"),
        .h("http-state CHROMIUM0009", ["BLAHHH; path=/;"], "BLAHHH"),
        .h("http-state CHROMIUM0012", ["=ABC"], "ABC"),
        .h("http-state CHROMIUM0013", ["ABC=;  path = /"], "ABC="),
        .h("http-state CHROMIUM0014", ["  A  = BC  ;foo;;;   bar"], "A=BC"),
        .h("http-state CHROMIUM0015", ["  A=== BC  ;foo;;;   bar"], "A=== BC"),
        .h("http-state CHROMIUM0018: only spaces", ["    "], nil),
        .h("http-state CHROMIUM0021: empty", [""], nil),
        .h("http-state VALUE0002: quotes are kept", ["foo=\"bar\""], "foo=\"bar\""),
        .h("http-state VALUE0003", ["foo=\"  bar \""], "foo=\"  bar \""),
        .h("http-state VALUE0004", ["foo=\"bar;baz\""], "foo=\"bar"),
        .h("http-state CHROMIUM0002", ["aBc=\"zzz \"   ;"], "aBc=\"zzz \""),
        .h("http-state CHROMIUM0006", ["aBc=\"zzz \"   \"ppp\"  ;"], "aBc=\"zzz \"   \"ppp\""),
        .h("http-state CHROMIUM0008", ["aBc=A\"B ;"], "aBc=A\"B"),
        .h("http-state CHROMIUM0011", ["a=\"B"], "a=\"B"),
        .h("WPT: tabs are whitespace", ["test\t=\t21\t \t;\tttt"], "test=21"),
        .h("http-state COMMA0001: a comma does not split", ["foo=bar, baz=qux"], "foo=bar, baz=qux"),
        .h("http-state 0018", ["z=y; foo=bar, a=b"], "z=y"),
        .h("WPT: percent-encoding is not decoded", ["%74%65%73%74=%32%33"], "%74%65%73%74=%32%33"),
        .h("WPT: '=' inside the value", ["test=26=26=26"], "test=26=26=26"),
        .h("http-state 0013: a later cookie replaces an earlier", ["foo=bar", "foo=qux"], "foo=qux"),
        .h("draft §3.1: names are case-sensitive", ["SID=31d4", "sid=31d4"], "SID=31d4; sid=31d4"),
    ]

    @Test(arguments: nameValue)
    func section5_6ANameValuePairIsReadAsTheDraftSays(vector: CookieVector) {
        #expect(vector.run() == vector.expected)
    }

    static let refused: [CookieVector] = [
        .h("§5.6 step 1: NUL", ["AAA=BB\u{0}ZYX"], nil),
        .h("§5.6 step 1: LF", ["test=13\nZYX"], nil),
        .h("§5.6 step 1: CR", ["test=13\rZYX"], nil),
        .h("§5.6 step 1: DEL", ["test=1\u{7F}"], nil),
        .h("§5.6 step 1: a control character in an attribute", ["testpath=t; Path=/te\u{1}st"], nil),
        .h("§5.6: a tab inside an attribute is kept", ["testpath=t; Path=/te\tst; Path=/"], "testpath=t"),
        .h(
            "§5.6 step 5: 4096 octets", ["test=" + String(repeating: "x", count: 4092)],
            "test=" + String(repeating: "x", count: 4092)),
        .h("§5.6 step 5: 4097 octets", ["test=" + String(repeating: "x", count: 4093)], nil),
        .h(
            "§5.6 step 5: measured after trimming", ["  a=" + String(repeating: "x", count: 4095) + "  "],
            "a=" + String(repeating: "x", count: 4095)),
        .h("§5.6 step 5: a nameless 4096", [String(repeating: "v", count: 4096)], String(repeating: "v", count: 4096)),
        .h("§5.6 step 5: octets, not characters", ["a=" + String(repeating: "é", count: 2048)], nil),
    ]

    @Test(arguments: refused)
    func section5_6ControlCharactersAndSizeLimitsRefuseTheWholeCookie(vector: CookieVector) {
        #expect(vector.run() == vector.expected)
    }

    @Test func section5_6AnAttributeValueOver1024OctetsIsIgnoredAndTheCookieKept() {
        let longPath = CookieVector(
            source: "1025-octet Path", setCookies: ["a=1; Path=/" + String(repeating: "p", count: 1024)],
            from: "https://h.example/p/q", to: "https://h.example/p/x", expected: "a=1")
        let exactPath = CookieVector(
            source: "1024-octet Path", setCookies: ["a=1; Path=/" + String(repeating: "p", count: 1023)],
            from: "https://h.example/p/q", to: "https://h.example/p/x", expected: nil)
        let longDomain = CookieVector(
            source: "1025-octet Domain", setCookies: ["a=1; Domain=" + String(repeating: "d", count: 1025)],
            from: "https://h.example/", to: "https://h.example/", expected: "a=1")

        #expect(longPath.run() == longPath.expected)
        #expect(exactPath.run() == exactPath.expected)
        #expect(longDomain.run() == longDomain.expected)
    }

    @Test func section5_6EachRefusalSaysWhy() {
        let jar = CookieJar(now: { CookieVector.now })
        let url = URL(string: "http://home.example.org/") ?? URL(fileURLWithPath: "/")

        #expect(jar.receive(setCookie: "a=\u{1}", from: url).refusal == .controlCharacter)
        #expect(jar.receive(setCookie: "=", from: url).refusal == .empty)
        #expect(jar.receive(setCookie: String(repeating: "x", count: 4097), from: url).refusal == .tooLarge)
        #expect(jar.receive(setCookie: "a=1", from: url).isStored)
        #expect(jar.receive(setCookie: "a=1", from: url).description == "a: stored")
    }
}

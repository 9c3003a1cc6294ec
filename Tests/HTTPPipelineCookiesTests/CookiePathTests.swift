import Foundation
import HTTPPipelineCookies
import Testing

/// RFC 6265bis §5.1.4 and §5.7 step 11: the default path and path-match.
@Suite struct CookiePathTests {
    static func at(_ path: String) -> String { "http://home.example.org:8888" + path }

    static let paths: [CookieVector] = [
        .h("ATTRIBUTE0014: Path without a value", ["foo=bar; Path"], "foo=bar"),
        .h("ATTRIBUTE0015", ["foo=bar; Path="], "foo=bar"),
        .h("ATTRIBUTE0017", ["foo=bar; Path=/qux"], nil),
        .h("ATTRIBUTE0019: whitespace trimmed", ["foo=bar; Path=    /qux"], nil),
        .h("PATH0005", ["foo=bar; path=/cookie-parser-result/foo"], nil),
        .h("PATH0007", ["foo=bar; path=/cookie-parser-result/foo"], to: at("/cookie-parser-result/foo"), "foo=bar"),
        .h("PATH0008", ["foo=bar; path=/cookie-parser-result/foo"], to: at("/cookie-parser-result/bar"), nil),
        .h("PATH0009", ["foo=bar; path=/cookie-parser-result/foo/qux"], to: at("/cookie-parser-result/foo"), nil),
        .h(
            "PATH0010", ["foo=bar; path=/cookie-parser-result/foo/qux"], to: at("/cookie-parser-result/foo/qux"),
            "foo=bar"),
        .h("PATH0013", ["foo=bar; path=/cookie-parser-result/foo/qux/"], to: at("/cookie-parser-result/foo/baz"), nil),
        .h("PATH0014", ["foo=bar; path=/cookie-parser-result/foo/qux/"], to: at("/cookie-parser-result/foo/qux"), nil),
        .h(
            "PATH0015", ["foo=bar; path=/cookie-parser-result/foo/qux/"], to: at("/cookie-parser-result/foo/qux/"),
            "foo=bar"),
        .h(
            "PATH0016", ["foo=bar; path=/cookie-parser-result/foo/"], to: at("/cookie-parser-result/foo/qux"), "foo=bar"
        ),
        .h(
            "PATH0017", ["foo=bar; path=/cookie-parser-result/foo/"], to: at("/cookie-parser-result/foo//qux"),
            "foo=bar"),
        .h("PATH0018", ["foo=bar; path=/cookie-parser-result/foo/"], to: at("/cookie-parser-result/fooqux"), nil),
        .h("PATH0023: case-sensitive", ["foo=bar; Path=/cookie-PARSER-result"], nil),
        .h("PATH0024", ["foo=bar; path=/cookie-parser-result/foo/qux?"], to: at("/cookie-parser-result/foo/qux"), nil),
        .h(
            "PATH0026: ';' ends the attribute", ["foo=bar; path=/cookie-parser-result/foo/qux;"],
            to: at("/cookie-parser-result/foo/qux"), "foo=bar"),
        .h(
            "PATH0027: a quoted path is the default path", ["foo=bar; path=\"/cookie-parser-result/foo/qux;\""],
            to: at("/cookie-parser-result/foo/qux"), "foo=bar"),
        .h(
            "PATH0028: no percent-decoding", ["foo=bar; path=/cookie-parser-result/f%6Fo/bar"],
            to: at("/cookie-parser-result/foo/bar"), nil),
        .h(
            "PATH0029", ["a=b;       path    =       /cookie-parser-result   ", "x=y;       path    =       /book   "],
            "a=b"),
        .at("http://h.example/docs/Web/HTTP", "§5.1.4: the default path stops at the last '/'", ["a=1"], "a=1"),
    ]

    @Test(arguments: paths)
    func section5_1_4ACookieGoesOnlyUnderItsPath(vector: CookieVector) {
        #expect(vector.run() == vector.expected)
    }

    @Test(arguments: [
        ("/docs/Web/HTTP", "/docs/Web"), ("/docs", "/"), ("/docs/", "/docs"), ("", "/"), ("/", "/"),
    ])
    func section5_1_4TheDefaultPathIsTheDirectoryOfTheRequest(requestPath: String, expected: String) throws {
        let jar = CookieJar(now: { CookieVector.now })
        let cookie = jar.receive(setCookie: "a=1", from: try #require(URL(string: "http://h.example" + requestPath)))
            .cookie
        #expect(cookie?.path == expected)
    }

    @Test(arguments: [
        ("/docs", true), ("/docs/", true), ("/docs/Web", true), ("/docsets", false), ("/Docs", false), ("/", false),
    ])
    func section5_1_4PathMatchIsByPrefixAtASlash(requestPath: String, matches: Bool) throws {
        let jar = CookieJar(now: { CookieVector.now })
        jar.receive(setCookie: "a=1; Path=/docs", from: try #require(URL(string: "http://h.example/")))
        #expect((jar.cookieField(for: try #require(URL(string: "http://h.example" + requestPath))) != nil) == matches)
    }
}

import Foundation
import HTTPPipelineCookies
import Testing

/// One case from the draft's algorithms: `Set-Cookie` values received from `from`, in order, and
/// the `Cookie` field a later request to `to` carries (`nil`: none).
struct CookieVector: Sendable, CustomTestStringConvertible {
    let source: String
    let setCookies: [String]
    let from: String
    let to: String
    let expected: String?

    /// Setup H of the http-state suite: set from `http://home.example.org:8888/cookie-parser`,
    /// read at `/cookie-parser-result` unless `to` says otherwise.
    static func h(
        _ source: String, _ setCookies: [String], to: String = "http://home.example.org:8888/cookie-parser-result",
        _ expected: String?
    ) -> CookieVector {
        CookieVector(
            source: source, setCookies: setCookies, from: "http://home.example.org:8888/cookie-parser", to: to,
            expected: expected)
    }

    /// Set and read at one URL.
    static func at(_ url: String, _ source: String, _ setCookies: [String], _ expected: String?) -> CookieVector {
        CookieVector(source: source, setCookies: setCookies, from: url, to: url, expected: expected)
    }

    var testDescription: String { source }

    /// Runs the case on a fresh jar.
    func run(options: CookieJar.Options = CookieJar.Options()) -> String? {
        let jar = CookieJar(options: options, now: { CookieVector.now })
        for value in setCookies { jar.receive(setCookie: value, from: URL(string: from) ?? URL(fileURLWithPath: "/")) }
        return jar.cookieField(for: URL(string: to) ?? URL(fileURLWithPath: "/"))
    }

    /// A fixed now: Wed, 15 Nov 2023 00:00:00 GMT.
    static let now = Date(timeIntervalSince1970: 1_700_006_400)
}

/// Whether libpsl could be loaded here: cases about public suffixes need it.
let libpslLoaded = PublicSuffixes.libpsl.isAvailable

import Foundation
import HTTPPipeline
import HTTPPipelineCookies
import HTTPPipelineCurl
import HTTPPipelineTesting
import Testing

/// The draft's cases again, end to end: each `Set-Cookie` sent by a loopback server as real
/// header lines, read by `CurlTransport`, kept by `CookieMiddleware`, and the `Cookie` field the
/// server then receives compared with the case's. The cases that need another host name
/// (`Domain`), `https`, or bytes no header line may hold stay with the jar-level suites.
@Suite struct CookieVectorsOverLoopbackTests {
    static let all: [CookieVector] =
        CookieParsingTests.nameValue + CookieParsingTests.refused + CookieAttributeTests.attributes
        + CookieAttributeTests.lifetimes + CookiePathTests.paths + CookieOrderTests.orders

    /// Whether a case can run against a server on 127.0.0.1.
    static func runsOverLoopback(_ vector: CookieVector) -> Bool {
        guard let from = URL(string: vector.from), let to = URL(string: vector.to),
            from.host == "home.example.org", to.host == "home.example.org", from.scheme == "http"
        else { return false }
        return vector.setCookies.allSatisfy { value in
            !value.lowercased().contains("domain=")
                && !value.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
        }
    }

    @Test func theDraftsCasesHoldWhenTheCookiesCrossARealConnection() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }
        let cases = Self.all.filter(Self.runsOverLoopback)
        #expect(cases.count > 60)
        for vector in cases {
            let from = try #require(URL(string: vector.from))
            let to = try #require(URL(string: vector.to))
            server.route("GET", from.path, .init(headers: vector.setCookies.map { ("Set-Cookie", $0) }))
            let client = Pipeline(transport: CurlTransport()) { CookieMiddleware(jar: CookieJar()) }
            let base = server.baseURL.absoluteString.trimmingCharacters(in: ["/"])
            _ = try await client.send(
                HTTPRequest(url: try #require(URL(string: base + from.path(percentEncoded: true)))))
            _ = try await client.send(HTTPRequest(url: try #require(URL(string: base + to.path(percentEncoded: true)))))
            #expect(server.requests.last?.header("Cookie") == vector.expected, "\(vector.source)")
        }
    }
}

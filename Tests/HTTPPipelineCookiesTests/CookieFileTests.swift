import Foundation
import HTTPPipeline
import HTTPPipelineCookies
import HTTPPipelineCurl
import HTTPPipelineTesting
import TestSupport
import Testing

/// The Netscape cookie file curl reads and writes: round trips, damaged lines, atomic writes,
/// and the `curl` tool and this jar on one file, both ways.
@Suite struct CookieFileTests {
    func file() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString).txt")
    }

    func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test func aJarWrittenAndLoadedAgainHoldsTheSameCookies() throws {
        let path = file()
        defer { try? FileManager.default.removeItem(at: path) }
        let jar = CookieJar(now: { CookieVector.now })
        let site = try url("https://www.site.example/account/settings")
        jar.receive(setCookie: "session=s3cr3t; Path=/; Secure; HttpOnly", from: site)
        jar.receive(setCookie: "theme=dark; Domain=site.example; Max-Age=3600", from: site)
        jar.receive(setCookie: "local=1", from: site)

        try jar.write(to: path)
        let loaded = CookieJar(now: { CookieVector.now })
        try loaded.load(contentsOf: path)
        let text = try String(contentsOf: path, encoding: .utf8)

        #expect(text.hasPrefix("# Netscape HTTP Cookie File"))
        #expect(text.contains("#HttpOnly_www.site.example\tFALSE\t/\tTRUE\t0\tsession\ts3cr3t\n"))
        #expect(
            text.contains(
                ".site.example\tTRUE\t/account\tFALSE\t\(Int(CookieVector.now.timeIntervalSince1970) + 3600)\ttheme\tdark\n"
            ))
        #expect(text.contains("www.site.example\tFALSE\t/account\tFALSE\t0\tlocal\t1\n"))
        let before = Set(
            jar.allCookies.map {
                "\($0.name) \($0.domain) \($0.path) \($0.isHostOnly) \($0.isSecure) \($0.isHTTPOnly) \($0.expires.map { Int($0.timeIntervalSince1970) } ?? 0)"
            })
        let after = Set(
            loaded.allCookies.map {
                "\($0.name) \($0.domain) \($0.path) \($0.isHostOnly) \($0.isSecure) \($0.isHTTPOnly) \($0.expires.map { Int($0.timeIntervalSince1970) } ?? 0)"
            })
        #expect(before == after)
    }

    @Test func aDamagedFileIsReadLineByLineWithEachBadLineReported() throws {
        let path = file()
        defer { try? FileManager.default.removeItem(at: path) }
        let lines = [
            "# Netscape HTTP Cookie File", "", "good.example\tFALSE\t/\tFALSE\t0\tok\t1",
            "too\tfew\tfields", "bad.example\tMAYBE\t/\tFALSE\t0\tx\t1", "bad.example\tFALSE\tnoslash\tFALSE\t0\tx\t1",
            "bad.example\tFALSE\t/\tFALSE\tsoon\tx\t1", "bad.example\tFALSE\t/\tFALSE\t0\tx\u{1}\t1",
            "empty.example\tFALSE\t/\tFALSE\t0\tnovalue", "\u{FF}\u{FE}garbage",
            "gone.example\tFALSE\t/\tFALSE\t1\told\t1",
        ]
        try Data(lines.joined(separator: "\r\n").utf8).write(to: path)
        let jar = CookieJar(now: { CookieVector.now })

        let problems = try jar.load(contentsOf: path)

        #expect(problems.map(\.line) == [4, 6, 7, 8, 10], "a flag other than TRUE reads as FALSE, as curl reads it")
        #expect(jar.cookieField(for: try url("http://good.example/")) == "ok=1")
        #expect(jar.cookieField(for: try url("http://empty.example/")) == "novalue=")
        #expect(jar.cookieField(for: try url("http://gone.example/")) == nil)
    }

    @Test func aFileOfRandomBytesNeverCrashesTheJar() throws {
        let path = file()
        defer { try? FileManager.default.removeItem(at: path) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let bytes = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes + Array("\n.x.example\tTRUE\t/\tFALSE\t0\tn\tv\n".utf8)).write(to: path)
            let jar = CookieJar(now: { CookieVector.now })
            _ = try jar.load(contentsOf: path)
            #expect(jar.cookieField(for: try url("http://www.x.example/")) == "n=v")
        }
    }

    @Test func aWriteThatFailsLeavesTheFileAsItWas() throws {
        let path = file()
        defer { try? FileManager.default.removeItem(at: path) }
        try Data("# old\n".utf8).write(to: path)
        let jar = CookieJar(now: { CookieVector.now })
        jar.receive(setCookie: "a=1", from: try url("http://h.example/"))

        #expect(throws: (any Error).self) { try jar.write(to: URL(fileURLWithPath: "/nonexistent-\(UUID())/c.txt")) }
        try jar.write(to: path)
        let names = try FileManager.default.contentsOfDirectory(atPath: path.deletingLastPathComponent().path)

        #expect(try String(contentsOf: path, encoding: .utf8).contains("h.example\tFALSE\t/\tFALSE\t0\ta\t1"))
        #expect(!names.contains { $0.hasPrefix(".\(path.lastPathComponent)") })
    }

    static let curl = CommandLineTool.path("curl")

    /// A loopback origin that sets three cookies at `/login` and records what `/account` gets.
    static func origin() throws -> LoopbackServer {
        let server = LoopbackServer()
        server.route(
            "GET", "/login",
            .init(headers: [
                ("Set-Cookie", "session=s3ss10n; Path=/; HttpOnly"), ("Set-Cookie", "theme=dark; Max-Age=3600"),
                ("Set-Cookie", "scoped=1; Path=/account"),
            ]))
        server.route("GET", "/account", .init(status: 200))
        try server.start()
        return server
    }

    @Test(.enabled(if: curl != nil, "needs the curl command-line tool on PATH"))
    func cookiesCurlStoredInAFileAreSentByThisJar() async throws {
        let curl = try #require(Self.curl)
        let server = try Self.origin()
        defer { server.stop() }
        let path = file()
        defer { try? FileManager.default.removeItem(at: path) }

        let status = try CommandLineTool.run(
            curl,
            ["-s", "-o", "/dev/null", "-c", path.path, server.baseURL.appendingPathComponent("login").absoluteString]
        ).status
        let jar = try CookieJar(contentsOf: path)
        let pipeline = Pipeline(transport: CurlTransport()) { CookieMiddleware(jar: jar) }
        _ = try await pipeline.send(HTTPRequest(url: server.baseURL.appendingPathComponent("account")))

        #expect(status == 0)
        let sent = (server.requests.last?.header("Cookie") ?? "").components(separatedBy: "; ")
        #expect(sent.first == "scoped=1", "the longest path first")
        #expect(Set(sent) == ["scoped=1", "session=s3ss10n", "theme=dark"])
        #expect(jar.allCookies.first { $0.name == "session" }?.isHTTPOnly == true)
    }

    @Test(.enabled(if: curl != nil, "needs the curl command-line tool on PATH"))
    func cookiesThisJarStoredInAFileAreSentByCurl() async throws {
        let curl = try #require(Self.curl)
        let server = try Self.origin()
        defer { server.stop() }
        let path = file()
        defer { try? FileManager.default.removeItem(at: path) }
        let jar = CookieJar()
        let pipeline = Pipeline(transport: CurlTransport()) { CookieMiddleware(jar: jar) }
        _ = try await pipeline.send(HTTPRequest(url: server.baseURL.appendingPathComponent("login")))

        try jar.write(to: path)
        let status = try CommandLineTool.run(
            curl,
            ["-s", "-o", "/dev/null", "-b", path.path, server.baseURL.appendingPathComponent("account").absoluteString]
        ).status

        #expect(status == 0)
        let sent = Set(
            (server.requests.last?.header("Cookie") ?? "").split(separator: ";").map {
                $0.trimmingCharacters(in: .whitespaces)
            })
        #expect(sent == ["scoped=1", "session=s3ss10n", "theme=dark"])
    }
}

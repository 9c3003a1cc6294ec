import Foundation
import HTTPPipeline
import HTTPPipelineCookies
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cases an independent review of the jar found against RFC 6265bis draft 22 and curl's cookie
/// file: octets not characters, expired cookies gone before they count, IP literals, hostile
/// expiries, and the lines curl writes and reads.
@Suite struct CookieConformanceTests {
    func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    // MARK: §5.6.2 Max-Age

    @Test func section5_6_2MaxAgeWithLeadingZerosIsItsValueNotTheLimit() throws {
        let zero = CookieVector.h("Max-Age=0 written with twenty digits", ["a=1; Max-Age=00000000000000000000"], nil)
        #expect(zero.run() == zero.expected)

        let jar = CookieJar(now: { CookieVector.now })
        let decision = jar.receive(
            setCookie: "a=1; Max-Age=0000000000000000060", from: try url("http://home.example.org/"))
        #expect(decision.cookie?.expires == CookieVector.now.addingTimeInterval(60))
    }

    // MARK: Octets, not Unicode characters (§3, §5.6, §5.7 steps 20 to 23)

    @Test func section5_7Step23NamesAreOctetsSoCanonicallyEquivalentNamesAreTwoCookies() throws {
        let jar = CookieJar(now: { CookieVector.now })
        let site = try url("http://home.example.org/")
        jar.receive(setCookie: "caf\u{E9}=1", from: site)
        jar.receive(setCookie: "cafe\u{301}=2", from: site)

        // Compared as octets: Swift's `==` on strings treats the two spellings as one.
        let field = jar.cookieField(for: site).map { Array($0.utf8) }
        #expect(field == Array("caf\u{E9}=1; cafe\u{301}=2".utf8))
        #expect(jar.allCookies.count == 2)
    }

    @Test func section5_7Step20APrefixIsMatchedOnOctetsEvenBeforeACombiningMark() throws {
        let jar = CookieJar(now: { CookieVector.now })
        let site = try url("https://site.example/")

        // The name begins with the octets "__Secure-"; a combining mark after the "-" makes Swift's
        // `hasPrefix` (which compares grapheme clusters) miss it.
        #expect(jar.receive(setCookie: "__Secure-\u{301}x=1", from: site).refusal == .securePrefix)
        #expect(
            jar.receive(setCookie: "__Host-\u{301}x=1; Secure; Domain=site.example; Path=/", from: site).refusal
                == .hostPrefix)
        #expect(jar.receive(setCookie: "__Host-\u{301}x; Secure; Path=/", from: site).refusal == .prefixedNamelessValue)
        #expect(jar.cookieField(for: site) == nil)
    }

    @Test func section5_6_4APathValueStartingWithTheSlashOctetIsKept() throws {
        let jar = CookieJar(now: { CookieVector.now })
        let decision = jar.receive(setCookie: "a=1; Path=/\u{301}x", from: try url("https://h.example/p/q"))
        // The first octet is %x2F, so the value is the cookie-path, not the default-path "/p".
        #expect(decision.cookie.map { Array($0.path.utf8) } == Array("/\u{301}x".utf8))
    }

    // MARK: §5.7 step 16 and expired cookies

    @Test func section5_7Step16AnExpiredSecureCookieDoesNotBlockAnInsecureOne() throws {
        let clock = Locked(CookieVector.now)
        let jar = CookieJar(options: CookieJar.Options(bindsToPort: false), now: { clock.value })
        jar.receive(setCookie: "a=1; Secure; Max-Age=60; Domain=h.example", from: try url("https://h.example/"))
        clock.withLock { $0 = $0.addingTimeInterval(120) }

        // The secure cookie has expired: the jar must have evicted it ("MUST evict all expired
        // cookies ... at any time"), so nothing is left for step 16 to protect.
        let decision = jar.receive(setCookie: "a=2", from: try url("http://www.h.example/"))
        #expect(decision.isStored)
        #expect(jar.cookieField(for: try url("http://www.h.example/")) == "a=2")
    }

    // MARK: §5.1.3 / §5.7 steps 9 and 10 with IPv6

    @Test(.enabled(if: libpslLoaded, "libpsl calls the single-label IPv6 literal a public suffix"))
    func section5_7Step9AnIPv6DomainIsNotAPublicSuffix() throws {
        let jar = CookieJar(now: { CookieVector.now })
        let site = try url("http://[2001:db8::1]/")
        jar.receive(setCookie: "a=1", from: site)
        let decision = jar.receive(setCookie: "a=2; Domain=2001:db8::1", from: site)

        // As with 192.168.0.10 (vector 107): the Domain is identical to the host, so the cookie
        // has host-only-flag false, and the key (name, domain, host-only, path) differs from a=1's.
        #expect(decision.cookie?.isHostOnly == false)
        #expect(jar.cookieField(for: site) == "a=1; a=2")
    }

    @Test func section5_7Step23AnExpiredCookieLendsNoCreationTimeToItsReplacement() throws {
        let clock = Locked(CookieVector.now)
        let jar = CookieJar(now: { clock.value })
        let site = try url("http://home.example.org/")
        jar.receive(setCookie: "a=1; Max-Age=10", from: site)
        jar.receive(setCookie: "b=1", from: site)
        clock.withLock { $0 = $0.addingTimeInterval(20) }

        // a=1 expired 10 seconds ago and must be gone; a=2 is a new cookie, created after b=1.
        jar.receive(setCookie: "a=2", from: site)
        #expect(jar.cookieField(for: site) == "b=1; a=2")
    }

    @Test(.enabled(if: idn2Loaded, "needs libidn2.so.0, which libcurl and libpsl bring"))
    func section5_1_2AUnicodeHostIsCanonicalizedToItsALabel() throws {
        let jar = CookieJar(now: { CookieVector.now })
        jar.receive(setCookie: "a=1", from: try url("http://xn--bcher-kva.example/"))
        // §5.8.3 steps 1-2: the retrieval host "bücher.example" canonicalizes to "xn--bcher-kva.example".
        #expect(jar.cookieField(for: try url("http://bücher.example/")) == "a=1")
        // §5.7 step 10: from the U-label host, a Domain given as its A-label domain-matches.
        let decision = jar.receive(
            setCookie: "b=1; Domain=xn--bcher-kva.example", from: try url("http://BÜCHER.example/"))
        #expect(decision.cookie?.domain == "xn--bcher-kva.example")
    }

    static let idn2Loaded = ["libidn2.so.0", "libidn2.0.dylib"].contains { (name: String) in
        dlopen(name, RTLD_NOW) != nil
    }

    // MARK: Robustness

    @Test func aFarFutureExpiryFromACookieFileDoesNotCrashTheWriter() async throws {
        await #expect(processExitsWith: .success) {
            let directory = FileManager.default.temporaryDirectory
            let file = directory.appendingPathComponent("cookies-\(UUID().uuidString).txt")
            let out = directory.appendingPathComponent("cookies-\(UUID().uuidString).txt")
            try? Data("h.example\tFALSE\t/\tFALSE\t9223372036854775807\ta\t1\n".utf8).write(to: file)
            let jar = CookieJar()
            _ = try? jar.load(contentsOf: file)
            try? jar.write(to: out)
        }
    }

    @Test func aLargeAgeLimitAndAHugeMaxAgeDoNotCrashTheWriter() async throws {
        await #expect(processExitsWith: .success) {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString).txt")
            let jar = CookieJar(options: CookieJar.Options(ageLimit: .seconds(Int64.max)))
            jar.receive(
                setCookie: "a=1; Max-Age=99999999999999999999",
                from: URL(string: "https://h.example/") ?? URL(fileURLWithPath: "/"))
            try? jar.write(to: out)
        }
    }

    // MARK: The Netscape cookie file as curl 7.88 writes and reads it

    func file(_ lines: [String]) throws -> URL {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString).txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: path)
        return path
    }

    @Test func curlsDefaultPathWithATrailingSlashIsSentWhereCurlSendsIt() throws {
        // What `curl -c` wrote for `a=1` set by http://127.0.0.1:18777/account/settings (no Path):
        // curl stores the default path with its slash and matches it as "/account".
        let path = try file([
            "# Netscape HTTP Cookie File", "127.0.0.1\tFALSE\t/account/\tFALSE\t0\ta\t1",
        ])
        defer { try? FileManager.default.removeItem(at: path) }
        let jar = try CookieJar(contentsOf: path)
        // `curl -b` sends "a=1" to /account.
        #expect(jar.cookieField(for: try url("http://127.0.0.1:18777/account")) == "a=1")
    }

    @Test func linesWithLeadingBlanksAndAnyFlagAreReadAsCurlReadsThem() throws {
        let path = try file([
            "Set-Cookie: hdr=1; path=/", "   127.0.0.1\tFALSE\t/\tFALSE\t0\tlead\t1",
            "127.0.0.1\tFALSE\t/\tmaybe\t0\tflag\t1",
        ])
        defer { try? FileManager.default.removeItem(at: path) }
        let jar = CookieJar()
        let problems = try jar.load(contentsOf: path)
        // curl reads leading blanks and any flag but TRUE as FALSE; a header line names no
        // origin, so the jar reports it rather than guess one.
        #expect(problems.map(\.line) == [1])
        #expect(Set(jar.allCookies.map(\.name)) == ["lead", "flag"])
    }

    @Test func aNamelessCookieIsNotWrittenAsALineCurlReadsAsAnotherCookie() throws {
        let jar = CookieJar(now: { CookieVector.now })
        jar.receive(setCookie: "abc", from: try url("http://h.example/"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: path) }
        try jar.write(to: path)
        let text = try String(contentsOf: path, encoding: .utf8)
        // curl splits fields with strtok, so "h.example FALSE / FALSE 0 <empty> abc" reads as a
        // cookie named "abc" with an empty value: `curl -b` then sends "abc=".
        #expect(!text.contains("\t0\t\tabc"))
    }
}

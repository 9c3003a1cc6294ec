import Foundation
import HTTPPipeline
import HTTPPipelineCookies
import Testing

/// RFC 6265bis §5.7: limits per domain and in total, evicted in the draft's order, least recently
/// used first; and the end of a session.
@Suite struct CookieEvictionTests {
    func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test func aCrowdedDomainLosesItsInsecureCookiesFirstThenItsLeastRecentlyUsed() throws {
        let clock = Locked(CookieVector.now)
        let jar = CookieJar(options: CookieJar.Options(maximumPerDomain: 3), now: { clock.value })
        let site = try url("https://site.example/")
        func tick() { clock.withLock { $0 = $0.addingTimeInterval(1) } }
        jar.receive(setCookie: "secure1=1; Secure", from: site)
        tick()
        jar.receive(setCookie: "plain=1", from: site)
        tick()
        jar.receive(setCookie: "secure2=1; Secure", from: site)
        tick()

        jar.receive(setCookie: "secure3=1; Secure", from: site)

        #expect(Set(jar.allCookies.map(\.name)) == ["secure1", "secure2", "secure3"])
        tick()
        _ = jar.cookies(for: try url("https://site.example/")).count
        jar.receive(setCookie: "secure4=1; Secure; Path=/x", from: site)
        // All three were sent at the same instant: the earliest stored of them goes.
        #expect(Set(jar.allCookies.map(\.name)) == ["secure2", "secure3", "secure4"])
    }

    @Test func pastTheTotalTheLeastRecentlyUsedCookieGoesFirst() throws {
        let clock = Locked(CookieVector.now)
        let jar = CookieJar(options: CookieJar.Options(maximumTotal: 3), now: { clock.value })
        for number in 1...3 {
            jar.receive(setCookie: "c=\(number)", from: try url("https://host\(number).example/"))
            clock.withLock { $0 = $0.addingTimeInterval(1) }
        }
        _ = jar.cookieField(for: try url("https://host1.example/"))
        clock.withLock { $0 = $0.addingTimeInterval(1) }

        jar.receive(setCookie: "c=4", from: try url("https://host4.example/"))

        #expect(Set(jar.allCookies.map(\.domain)) == ["host1.example", "host3.example", "host4.example"])
    }

    @Test func threeThousandCookiesAreKeptAndTheNextEvictsABatchOfTheLeastRecentlyUsed() throws {
        let clock = Locked(CookieVector.now)
        let jar = CookieJar(now: { clock.value })
        for number in 0..<3_000 {
            jar.receive(setCookie: "c\(number)=1", from: try url("https://host\(number % 100).example/"))
            clock.withLock { $0 = $0.addingTimeInterval(1) }
        }
        #expect(jar.allCookies.count == 3_000)

        jar.receive(setCookie: "last=1", from: try url("https://host0.example/"))

        // Past the total, a twentieth of it goes at once: one pass over the jar per 150 cookies.
        #expect(jar.allCookies.count == 2_850)
        #expect(!jar.allCookies.contains { $0.name == "c0" || $0.name == "c150" })
        #expect(jar.allCookies.contains { $0.name == "c151" || $0.name == "last" })
    }

    @Test func theEndOfASessionRemovesTheCookiesWithoutAnExpiry() throws {
        let jar = CookieJar(now: { CookieVector.now })
        let site = try url("https://site.example/")
        jar.receive(setCookie: "session=1", from: site)
        jar.receive(setCookie: "kept=1; Max-Age=600", from: site)

        jar.removeSessionCookies()

        #expect(jar.cookieField(for: site) == "kept=1")
    }
}

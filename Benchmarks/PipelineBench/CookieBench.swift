import Foundation
import HTTPPipeline
import HTTPPipelineCookies

/// The cookie jar: what building a request's `Cookie` field costs with 3,000 cookies stored
/// (100 hosts of one site, 30 cookies each, one of them shared with the whole site by `Domain`,
/// paths of several depths), next to an empty jar in the same run; what storing one `Set-Cookie` costs; and what
/// the middleware adds to a call.
enum CookieBench {
    static func measurements(iterations: Int, rounds: Int) async -> [(String, Double)] {
        func filled() -> CookieJar {
            let jar = CookieJar()
            for host in 0..<100 {
                let origin = URL(string: "https://host\(host).shop.example/") ?? URL(fileURLWithPath: "/")
                for number in 0..<30 {
                    let path = ["/", "/account", "/account/orders", "/cart"][number % 4]
                    let domain = number == 0 ? "; Domain=shop.example" : ""
                    jar.receive(setCookie: "c\(host)_\(number)=v\(number); Path=\(path)\(domain)", from: origin)
                }
            }
            return jar
        }
        let full = filled()
        let empty = CookieJar()
        let url = URL(string: "https://host42.shop.example/account/orders/17") ?? URL(fileURLWithPath: "/")
        let sent = full.cookies(for: url).count
        let count = max(iterations / 10, 1)
        func median(_ work: () -> Void) -> Double {
            var samples: [Double] = []
            let clock = ContinuousClock()
            for _ in 0..<rounds {
                let start = clock.now
                for _ in 0..<count { work() }
                samples.append(start.duration(to: clock.now).seconds * 1e9 / Double(count))
            }
            return samples.sorted()[samples.count / 2]
        }
        let match = median { _ = full.cookieField(for: url) }
        let matchEmpty = median { _ = empty.cookieField(for: url) }
        let receiveJar = CookieJar()
        let receive = median {
            receiveJar.receive(setCookie: "session=abc123; Path=/; Secure; HttpOnly; SameSite=Lax", from: url)
        }
        // New cookies into the full jar: past the total, each batch of evictions is one pass.
        let growing = filled()
        var serial = 0
        let receiveFull = median {
            serial += 1
            growing.receive(setCookie: "new\(serial)=1", from: url)
        }
        let request = HTTPRequest(url: url)
        let transport = InMemoryTransport(response: HTTPResponse(status: 200))
        let chains: [(key: String, transport: any HTTPTransport)] = [
            ("cookies_none", Pipeline(transport: transport) { NoOp() }),
            ("cookies_middleware", Pipeline(transport: transport) { CookieMiddleware(jar: full) }),
        ]
        let medians = await runChains(chains, request: request, iterations: count, rounds: rounds)
        var entries: [(String, Double)] = [
            ("cookies_match_ns", match), ("cookies_match_empty_jar_ns", matchEmpty),
            ("cookies_match_sent", Double(sent)), ("cookies_jar_size", Double(full.allCookies.count)),
            ("cookies_receive_ns", receive), ("cookies_receive_full_jar_ns", receiveFull),
        ]
        if let none = medians["cookies_none"], let with = medians["cookies_middleware"] {
            entries.append(("cookies_middleware_added_ns", with - none))
        }
        return entries
    }
}

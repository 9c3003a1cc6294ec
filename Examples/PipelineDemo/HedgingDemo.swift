import Foundation
import HTTPPipeline
import HTTPPipelineHedging
import HTTPPipelineTesting
import HTTPPipelineURLSession

/// One run of the hedging section: latencies and what the server received.
struct HedgingDemoRun {
    /// The median and the 99th percentile of the calls' latencies.
    let p50: Duration
    let p99: Duration
    /// Calls made, and requests the route received for them.
    let calls: Int
    let requests: Int
}

/// A catalog route that answers in 10 ms, except every 20th request it receives, which stalls for
/// 1 s: 100 calls (5 callers, 20 each) without hedging, then with a hedge after 25 ms.
@discardableResult
func showHedging(server: LoopbackServer, transport: URLSessionTransport) async throws -> (
    plain: HedgingDemoRun, hedged: HedgingDemoRun
) {
    let arrivals = Locked(0)
    server.route("GET", "/catalog") { _ in
        let number = arrivals.withLock { count in
            count += 1
            return count
        }
        return .init(body: Data("[]".utf8), delay: number % 20 == 0 ? .seconds(1) : .milliseconds(10))
    }
    let hedged = Pipeline(transport: transport) {
        demoCallObserver()
        HedgingMiddleware(policy: .after(.milliseconds(25)))  // a second copy after 25 ms, ≤ 10 % extra
        demoAttemptObserver()  // each copy
    }
    heading("Hedging: every 20th request stalls for 1 s")
    print("   \(hedged)")
    let url = server.baseURL.appendingPathComponent("catalog")
    let plain = try await hedgingRun(transport, url: url, server: server)
    print("   without hedging: \(plain.summary)")
    let withHedging = try await hedgingRun(hedged, url: url, server: server)
    print("   with hedging:    \(withHedging.summary)")
    print("   a stalled request is answered by its hedge; the stalled one is cancelled")
    return (plain, withHedging)
}

/// 100 calls from 5 callers at once; the route's requests counted at the server.
private func hedgingRun(_ client: some HTTPTransport, url: URL, server: LoopbackServer) async throws -> HedgingDemoRun {
    let before = server.requests.count
    let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
        for _ in 0..<5 {
            group.addTask {
                var latencies: [Duration] = []
                let clock = ContinuousClock()
                for _ in 0..<20 {
                    let start = clock.now
                    _ = try await client.send(HTTPRequest(url: url)).body.collect(upTo: 1 << 16)
                    latencies.append(start.duration(to: clock.now))
                }
                return latencies
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }.sorted()
    // The stalled requests the hedges overtook still hold the server's threads: let them end.
    try await Task.sleep(for: .seconds(1))
    return HedgingDemoRun(
        p50: latencies[latencies.count / 2 - 1], p99: latencies[latencies.count * 99 / 100 - 1],
        calls: latencies.count, requests: server.requests.count - before)
}

extension HedgingDemoRun {
    /// `p50 12 ms, p99 1004 ms, 100 calls, 100 requests at the server`.
    var summary: String {
        let ms = { (duration: Duration) in Int((duration / .milliseconds(1)).rounded()) }
        return "p50 \(ms(p50)) ms, p99 \(ms(p99)) ms, \(calls) calls, \(requests) requests at the server"
    }
}

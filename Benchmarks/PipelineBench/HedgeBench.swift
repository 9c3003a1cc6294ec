import Foundation
import HTTPPipeline
import HTTPPipelineHedging
import HTTPPipelineTesting
import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hedging against a tail: a loopback server answers in 20 ms, except every 20th request it
/// receives (5 %), which stalls for 1 s. The same calls, without and with a hedging layer, over
/// `URLSessionTransport`, side by side in one run: latency percentiles and the requests the
/// server received per call. And what a hedging layer costs a call that answers at once.
enum HedgeBench {
    /// The fast path's service time, the stall, and the share of requests that stall.
    static let serviceTime = Duration.milliseconds(20)
    static let stall = Duration.seconds(1)
    static let stallEvery = 20
    /// The hedge delay: above the fast path's 95th percentile (20 ms and the loopback round trip,
    /// about 21 ms, with a margin for a loaded two-core machine), far below the stall.
    static let delay = Duration.milliseconds(30)
    /// Calls per run: `workers` loops of `callsPerWorker` sequential calls each.
    static let workers = 10
    static let callsPerWorker = 30

    static func measurements(iterations: Int, rounds: Int, failed: inout Bool) async -> [(String, Double)] {
        var entries = await happyPath(iterations: iterations, rounds: rounds)
        do {
            entries += try await tail()
        } catch {
            FileHandle.standardError.write(Data("hedge bench: \(error)\n".utf8))
            failed = true
        }
        return entries
    }

    /// The same pipeline with and without a hedging layer, over a transport that answers at once.
    static func happyPath(iterations: Int, rounds: Int) async -> [(String, Double)] {
        let transport = LoggingBench.transport()
        let chains: [(key: String, transport: any HTTPTransport)] = [
            ("hedge_none", Pipeline(transport: transport) { NoOp() }),
            (
                "hedge_layer",
                Pipeline(transport: transport) {
                    NoOp()
                    HedgingMiddleware(policy: .after(delay))
                }
            ),
        ]
        let medians = await runChains(chains, request: LoggingBench.request(), iterations: iterations, rounds: rounds)
        guard let none = medians["hedge_none"], let with = medians["hedge_layer"] else { return [] }
        return [("hedge_happy_path_ns", with), ("hedge_happy_path_added_ns", with - none)]
    }

    /// The tail measurement: unhedged first, then hedged, against one server.
    static func tail() async throws -> [(String, Double)] {
        let server = LoopbackServer()
        let arrivals = Locked(0)
        server.route("GET", "/item") { _ in
            let number = arrivals.withLock { count in
                count += 1
                return count
            }
            return LoopbackServer.Response(
                body: Data("item".utf8), delay: number % stallEvery == 0 ? stall : serviceTime)
        }
        server.route("GET", "/warm", LoopbackServer.Response(body: Data("warm".utf8)))
        try server.start()
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 4 * workers
        let transport = URLSessionTransport(session: URLSession(configuration: configuration))
        let url = server.baseURL.appending(path: "item")

        var entries: [(String, Double)] = [("hedge_delay_ms", delay.milliseconds)]
        let runs: [(String, any HTTPTransport)] = [
            ("unhedged", transport),
            ("hedge", Pipeline(transport: transport) { HedgingMiddleware(policy: .after(delay)) }),
            // Below the fast path, to show the floor: every call is slow enough to hedge, and the
            // budget, spent on fast calls, is gone when a stalled one needs it.
            (
                "hedge_at_10ms",
                Pipeline(transport: transport) { HedgingMiddleware(policy: .after(.milliseconds(10))) }
            ),
        ]
        for (name, client) in runs {
            for _ in 0..<workers { _ = try await client.send(HTTPRequest(url: server.baseURL.appending(path: "warm"))) }
            let before = server.requests.count
            let latencies = try await calls(client, url: url)
            let received = server.requests.count - before
            let p50 = percentile(latencies, 0.50)
            let p99 = percentile(latencies, 0.99)
            entries += [
                ("\(name)_p50_ms", p50), ("\(name)_p99_ms", p99), ("\(name)_p99_over_p50", p99 / p50),
                ("\(name)_extra_request_ratio", Double(received - latencies.count) / Double(latencies.count)),
            ]
            // The stalled requests still held by the server end before the next run.
            try await Task.sleep(for: stall)
        }
        return entries
    }

    /// Every call's latency in milliseconds.
    static func calls(_ client: any HTTPTransport, url: URL) async throws -> [Double] {
        try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<workers {
                group.addTask {
                    var latencies: [Double] = []
                    let clock = ContinuousClock()
                    for _ in 0..<callsPerWorker {
                        let start = clock.now
                        let response = try await client.send(HTTPRequest(url: url))
                        _ = try await response.body.collect(upTo: 1 << 16)
                        latencies.append(start.duration(to: clock.now).milliseconds)
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// The nearest-rank percentile.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }
}

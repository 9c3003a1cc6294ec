import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineURLSession

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Record and replay (issue 20): replaying a 10,000-entry cassette through the standard stack,
/// and what recording adds to a run over loopback sockets (recording vs not, same run, rounds
/// interleaved), and per request against an in-memory transport.
enum ReplayBench {
    static let entries = 10_000

    /// Request `index`: a distinct path, a query, the stack's headers and a bearer token.
    static func request(_ index: Int, base: URL) -> HTTPRequest {
        HTTPRequest(
            url: base.appending(path: "v1/books/\(index)").appending(queryItems: [.init(name: "lang", value: "en")]))
    }

    static func measurements(rounds: Int) async -> [(String, Double)] {
        do {
            return try await measure(rounds: rounds)
        } catch {
            FileHandle.standardError.write(Data("replay suite failed: \(error)\n".utf8))
            return []
        }
    }

    static func measure(rounds: Int) async throws -> [(String, Double)] {
        let api = URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/")
        let options = StandardStackBench.options()
        let memory = LoggingBench.transport()
        let requests = (0..<entries).map { request($0, base: api) }

        // Recording in memory: the stack alone, then the stack over a recorder.
        let cassette = Cassette()
        let plain = try StandardPipeline.build(over: memory, options: options)
        let recording = try StandardPipeline.build(
            over: RecordingTransport(over: memory, into: cassette), options: options)
        let plainSeconds = try await run(plain, requests)
        let recordingSeconds = try await run(recording, requests)
        precondition(cassette.entries.count == entries, "every request recorded")

        // Replay: a fresh transport per round (each entry is served once), the index built before
        // the clock starts.
        var replaySeconds: [Double] = []
        for _ in 0..<rounds {
            let replay = try StandardPipeline.build(over: try ReplayingTransport(cassette), options: options)
            replaySeconds.append(try await run(replay, requests))
        }

        // At least nine pairs: the ratio is a median of pairs, and five swing by ±0.05 on a busy
        // two-core machine.
        let (ratio, cpuRatio) = try await loopbackOverhead(rounds: max(rounds, 9), options: options)
        return [
            ("replay_requests_per_second", Double(entries) / median(replaySeconds)),
            ("record_overhead_ratio", ratio),
            ("record_overhead_cpu_ratio", cpuRatio),
            ("record_in_memory_extra_ns", (recordingSeconds - plainSeconds) / Double(entries) * 1e9),
        ]
    }

    /// Recording vs not over the loopback server and URLSessionTransport: the median of
    /// `rounds` pairs of 1,000 sequential requests, each pair run back to back, in alternating order:
    /// wall-clock time, and the process's CPU time (every thread: the stack's, URLSession's and
    /// the server's), which a busy machine disturbs less.
    static func loopbackOverhead(rounds: Int, options: StandardOptions) async throws -> (Double, Double) {
        let server = LoopbackServer()
        server.route(
            "GET", "/v1/books",
            .init(headers: [("Content-Type", "application/json")], body: Data(#"{"id":42,"title":"Dune"}"#.utf8)))
        try server.start()
        defer { server.stop() }
        let requests = (0..<1_000).map { _ in HTTPRequest(url: server.baseURL.appending(path: "v1/books")) }
        let transport = URLSessionTransport()
        let plain = try StandardPipeline.build(over: transport, options: options)
        _ = try await run(plain, Array(requests.prefix(100)))
        var ratios: [Double] = []
        var cpuRatios: [Double] = []
        for round in 0..<rounds {
            let recording = try StandardPipeline.build(
                over: RecordingTransport(over: transport, into: Cassette()), options: options)
            // Which goes first alternates, so a drift in the machine's speed hits both alike.
            var without = (wall: 0.0, cpu: 0.0)
            var with = (wall: 0.0, cpu: 0.0)
            if round.isMultiple(of: 2) {
                without = try await timed(plain, requests)
                with = try await timed(recording, requests)
            } else {
                with = try await timed(recording, requests)
                without = try await timed(plain, requests)
            }
            ratios.append(with.wall / without.wall)
            cpuRatios.append(with.cpu / without.cpu)
        }
        return (median(ratios), median(cpuRatios))
    }

    /// Wall-clock and process CPU seconds of sending the requests.
    static func timed(_ client: some HTTPTransport, _ requests: [HTTPRequest]) async throws -> (
        wall: Double, cpu: Double
    ) {
        let cpuBefore = cpuSeconds()
        let wall = try await run(client, requests)
        return (wall, cpuSeconds() - cpuBefore)
    }

    /// The CPU time the process has used, user and system, in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Sends the requests in order, reading each body whole; the seconds it took.
    static func run(_ client: some HTTPTransport, _ requests: [HTTPRequest]) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for request in requests {
            let response = try await client.send(request)
            precondition(response.status == 200, "status \(response.status)")
            _ = try await response.body.collect(upTo: 1 << 20)
        }
        let elapsed = start.duration(to: clock.now)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func median(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.sorted()[values.count / 2]
    }
}

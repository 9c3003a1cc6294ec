import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineConcurrencyLimit
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineTimeout
import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The token storm of issue 19, on real loopback sockets: `requests` calls at once, all holding a
/// stale token, against a server whose token endpoint takes 50 ms; once through auth alone, once
/// with a concurrency limit of 8 above auth, in the same run.
enum StormBench {
    /// The server's side: `/storm` accepts only the token `/token` last issued.
    final class Server: Sendable {
        let loopback = LoopbackServer()
        private let issued = Locked(0)

        init(refreshLatency: Duration) throws {
            try loopback.start()
            loopback.route("POST", "/token") { [issued] _ in
                let token = issued.withLock { count in
                    count += 1
                    return "fresh-\(count)"
                }
                return .init(body: Data(token.utf8), delay: refreshLatency)
            }
            loopback.route("GET", "/storm") { [issued] request in
                let valid = issued.withLock { "Bearer fresh-\($0)" }
                return .init(status: request.header("Authorization") == valid ? 200 : 401)
            }
        }

        /// How many `/storm` requests arrived so far.
        var stormRequests: Int { loopback.requests.filter { $0.path == "/storm" }.count }
    }

    /// The client's side: a stale token until the token endpoint gives a new one. The endpoint
    /// is called on a session of its own, so the refresh never queues behind the storm.
    actor Tokens: CredentialSource {
        private var current = "stale"
        private let endpoint: URL
        private let transport = URLSessionTransport(configuration: .ephemeral)

        init(endpoint: URL) { self.endpoint = endpoint }

        func currentCredential() -> Credential? { .bearer(current) }

        func refreshCredential(after failed: Credential?) async throws -> Credential {
            let response = try await transport.send(HTTPRequest(method: .post, url: endpoint, body: HTTPBody(Data())))
            current = String(decoding: try await response.body.collect(upTo: 1_024), as: UTF8.self)
            return .bearer(current)
        }
    }

    /// One storm through the standard stack as `StandardOptions` builds it by default (with the
    /// credentials): the round trips per call.
    static func defaultStorm(requests: Int, refreshLatency: Duration) async throws -> (Double, Int) {
        let (roundTrips, _, succeeded) = try await storm(requests: requests, refreshLatency: refreshLatency) {
            transport, tokens in
            try StandardPipeline.build(
                over: transport, options: StandardOptions(totalTimeout: .seconds(60), credentials: tokens))
        }
        return (roundTrips, succeeded)
    }

    /// 8 tasks through the standard stack with its default limit against the same stack without
    /// a limit, requests per second in alternating blocks (against nginx when given).
    static func eightTasksRatio(nginx: URL?, requests: Int) async throws -> Double {
        let (server, url) = try EndToEndBench.target(nginx: nginx)
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 8
        let transport = URLSessionTransport(session: URLSession(configuration: configuration))
        let limited = try StandardPipeline.build(over: transport, options: StandardOptions())
        let unlimited = try StandardPipeline.build(over: transport, options: StandardOptions(concurrencyLimit: nil))
        let request = HTTPRequest(url: url)
        for client in [limited, unlimited] as [any HTTPTransport] {
            _ = try await EndToEndBench.run(client, request, requests: 400, tasks: 8)
        }
        var seconds: (limited: Double, unlimited: Double) = (0, 0)
        let block = 400
        for index in 0..<max(requests / block, 1) {
            for first in index.isMultiple(of: 2) ? [true, false] : [false, true] {
                let rate = try await EndToEndBench.run(first ? limited : unlimited, request, requests: block, tasks: 8)
                if first { seconds.limited += Double(block) / rate } else { seconds.unlimited += Double(block) / rate }
            }
        }
        return seconds.unlimited / seconds.limited
    }

    /// One storm: the round trips per call and the wall time.
    static func storm(limited: Bool, requests: Int, refreshLatency: Duration) async throws -> (Double, Duration, Int) {
        try await storm(requests: requests, refreshLatency: refreshLatency) { transport, tokens in
            let auth = AuthMiddleware(source: tokens)
            let limit = limited ? ConcurrencyLimitMiddleware(limit: 8, maximumQueueLength: requests) : nil
            return Pipeline(transport: transport) {
                TimeoutMiddleware.deadline(.seconds(60))  // bounded, whatever happens
                limit
                auth
            }
        }
    }

    /// `requests` calls at once through the client `makeClient` builds over a URLSession transport
    /// and the stale tokens: the round trips per call, the wall time and the calls that succeeded.
    static func storm(
        requests: Int, refreshLatency: Duration,
        makeClient: (URLSessionTransport, Tokens) throws -> any HTTPTransport
    ) async throws -> (Double, Duration, Int) {
        let server = try Server(refreshLatency: refreshLatency)
        defer { server.loopback.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        let transport = URLSessionTransport(session: URLSession(configuration: configuration))
        let tokens = Tokens(endpoint: server.loopback.baseURL.appendingPathComponent("token"))
        let pipeline = try makeClient(transport, tokens)
        let url = server.loopback.baseURL.appendingPathComponent("storm")
        let clock = ContinuousClock()
        let start = clock.now
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<requests {
                group.addTask { (try? await pipeline.send(HTTPRequest(url: url)).status) == 200 }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let wall = start.duration(to: clock.now)
        return (Double(server.stormRequests) / Double(requests), wall, succeeded)
    }

    /// `storm_round_trips_per_request` (limited; goal ≤ 1.05) and `storm_wall_ratio_to_unlimited`
    /// (goal ≤ 0.75), with the figures they come from: `rounds` storms of each kind, alternating,
    /// the median wall time of each kind and the worst round trips kept.
    static func measurements(
        requests: Int = 1_000, refreshLatency: Duration = .milliseconds(50), rounds: Int = 3, nginx: URL? = nil,
        failed: inout Bool
    ) async -> [(String, Double)] {
        var walls: [Bool: [Double]] = [:]
        var trips: [Bool: Double] = [:]
        do {
            for _ in 0..<max(rounds, 1) {
                for limited in [false, true] {
                    let (roundTrips, wall, succeeded) = try await storm(
                        limited: limited, requests: requests, refreshLatency: refreshLatency)
                    if succeeded != requests { failed = true }
                    walls[limited, default: []].append(wall.milliseconds)
                    trips[limited] = max(trips[limited] ?? 0, roundTrips)
                }
            }
        } catch {
            FileHandle.standardError.write(Data("storm: \(error)\n".utf8))
            failed = true
            return []
        }
        var defaults: [(String, Double)] = []
        do {
            var worst = 0.0
            for _ in 0..<max(rounds, 1) {
                let (roundTrips, succeeded) = try await defaultStorm(requests: requests, refreshLatency: refreshLatency)
                if succeeded != requests { failed = true }
                worst = max(worst, roundTrips)
            }
            defaults.append(("storm_default_round_trips_per_request", worst))
            defaults.append(
                ("e2e_standard_8tasks_ratio_to_unlimited", try await eightTasksRatio(nginx: nginx, requests: 8_000)))
        } catch {
            FileHandle.standardError.write(Data("storm with the defaults: \(error)\n".utf8))
            failed = true
        }
        let unlimited = ReplayBench.median(walls[false] ?? [])
        let limited = ReplayBench.median(walls[true] ?? [])
        return [
            ("storm_requests", Double(requests)),
            ("storm_refresh_latency_ms", refreshLatency.milliseconds),
            ("storm_unlimited_round_trips_per_request", trips[false] ?? 0),
            ("storm_round_trips_per_request", trips[true] ?? 0),
            ("storm_unlimited_wall_ms", unlimited),
            ("storm_limited_wall_ms", limited),
            ("storm_wall_ratio_to_unlimited", unlimited > 0 ? limited / unlimited : 0),
        ] + defaults
    }
}

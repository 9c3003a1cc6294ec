import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineConcurrencyLimit
import HTTPPipelineRetry
import HTTPPipelineTimeout

/// A credential source that always has the same valid token: the auth happy path.
struct StaticSource: CredentialSource {
    func currentCredential() async throws -> Credential? { .bearer("bench-token") }
    func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("bench-token") }
}

/// Per-exchange overhead of retry, auth, a 30 s deadline and a concurrency limit with free slots
/// on the happy path (nothing to retry,
/// token valid, an answer at once),
/// as ratios to the same pipeline without them, measured side by side.
enum PluginBench {
    static func chains() -> [(key: String, transport: any HTTPTransport)] {
        let transport = LoggingBench.transport()
        let keeping = DeadlineKeepingInMemoryTransport(response: transport.response)
        return [
            ("plugins_none", Pipeline(transport: transport) { NoOp() }),
            ("plugins_kept_none", Pipeline(transport: keeping) { NoOp() }),
            (
                "plugins_kept_deadline",
                Pipeline(transport: keeping) {
                    NoOp()
                    TimeoutMiddleware.deadline(.seconds(30))
                }
            ),
            (
                "plugins_retry",
                Pipeline(transport: transport) {
                    NoOp()
                    RetryMiddleware(policy: .default)
                }
            ),
            (
                "plugins_timeout",
                Pipeline(transport: transport) {
                    NoOp()
                    TimeoutMiddleware.deadline(.seconds(30))
                }
            ),
            (
                "plugins_limiter",
                Pipeline(transport: transport) {
                    NoOp()
                    ConcurrencyLimitMiddleware(limit: 64)  // slots free: the happy path
                }
            ),
            (
                "plugins_auth",
                Pipeline(transport: transport) {
                    NoOp()
                    AuthMiddleware(source: StaticSource())
                }
            ),
        ]
    }

    static func entries(_ medians: [String: Double]) -> [(String, Double)] {
        guard let none = medians["plugins_none"], none > 0 else { return [] }
        var entries = [("plugins_none_ns", none)]
        if let keptNone = medians["plugins_kept_none"], let kept = medians["plugins_kept_deadline"] {
            // A 30 s deadline over a transport that keeps a cut deadline: no race.
            entries.append(("deadline_added_ns", kept - keptNone))
        }
        for name in ["retry", "auth", "timeout", "limiter"] {
            guard let with = medians["plugins_\(name)"] else { continue }
            entries += [
                ("\(name)_happy_path_ns", with), ("\(name)_happy_path_added_ns", with - none),
                ("\(name)_happy_path_ratio_to_none", with / none),
            ]
        }
        return entries
    }
}

/// The token endpoint of the concurrency measurement: the refresh takes a fixed latency.
actor SlowRefreshSource: CredentialSource {
    let latency: Duration
    private(set) var refreshes = 0

    init(latency: Duration) { self.latency = latency }

    func currentCredential() -> Credential? { .bearer("expired") }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        refreshes += 1
        try await Task.sleep(for: latency)
        return .bearer("fresh")
    }
}

/// Answers 200 to the fresh token and 401 to anything else.
struct TokenCheckingTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        HTTPResponse(status: request.fields["Authorization"] == "Bearer fresh" ? 200 : 401)
    }
}

enum AuthStormBench {
    /// Wall time for 1,000 concurrent requests that all meet a 401, in units of the refresh
    /// latency: 1.0 would be the refresh alone; the goal is under 3.
    static func measurements(latency: Duration = .milliseconds(100), requests: Int = 1_000) async -> [(String, Double)]
    {
        let source = SlowRefreshSource(latency: latency)
        let pipeline = Pipeline(transport: TokenCheckingTransport()) { AuthMiddleware(source: source) }
        let request = HTTPRequest(url: URL(fileURLWithPath: "/me"))
        let clock = ContinuousClock()
        let start = clock.now
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<requests {
                group.addTask { (try? await pipeline.send(request).status) == 200 }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let elapsed = start.duration(to: clock.now)
        return [
            ("auth_storm_requests", Double(requests)),
            ("auth_storm_succeeded", Double(succeeded)),
            ("auth_storm_refreshes", Double(await source.refreshes)),
            ("auth_storm_refresh_latency_ms", latency.milliseconds),
            ("auth_storm_wall_ms", elapsed.milliseconds),
            ("auth_storm_wall_in_refresh_latencies", elapsed.milliseconds / latency.milliseconds),
        ]
    }
}

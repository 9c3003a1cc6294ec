import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineConcurrencyLimit
import HTTPPipelineTesting
import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one storm saw, for the section's test.
struct StormDemoRun {
    /// Requests for the protected route the server received, per call.
    let roundTripsPerCall: Double
    /// Refreshes at the token endpoint.
    let refreshes: Int
    /// Calls that ended with 200.
    let succeeded: Int
    /// The storm's wall time, measured.
    let wall: Duration
}

/// `calls` concurrent calls meet an expired token, on a fresh loopback server with a 50 ms token
/// endpoint (the auth section's), through auth alone or with a concurrency limit of 8 above it;
/// `auth` is the auth layer's options (the defaults unless a test needs a longer refresh timeout).
func storm(calls: Int, limited: Bool, auth: AuthOptions = .default) async throws -> StormDemoRun {
    let server = LoopbackServer()
    try server.start()
    defer { server.stop() }
    let tokens = DemoTokenServer()
    tokens.install(on: server)
    tokens.expireAccessToken()
    // The refresh on a session of its own: it never queues behind the storm's requests.
    let source = DemoCredentialSource(
        tokenEndpoint: server.baseURL.appendingPathComponent("token"),
        transport: URLSessionTransport(configuration: .ephemeral))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 16
    let transport = URLSessionTransport(session: URLSession(configuration: configuration))
    let pipeline = Pipeline(transport: transport) {
        demoCallObserver()
        if limited { ConcurrencyLimitMiddleware(limit: 8) }  // above auth: queued calls take the new token
        AuthMiddleware(source: source, options: auth)
        demoAttemptObserver()
    }
    let shelf = server.baseURL.appendingPathComponent("me/shelf")
    let clock = ContinuousClock()
    let start = clock.now
    let succeeded = await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<calls {
            group.addTask { (try? await pipeline.send(HTTPRequest(url: shelf)).status) == 200 }
        }
        return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    let wall = start.duration(to: clock.now)
    let received = server.requests.filter { $0.path == "/me/shelf" }.count
    return StormDemoRun(
        roundTripsPerCall: Double(received) / Double(calls), refreshes: tokens.state.value.refreshCalls,
        succeeded: succeeded, wall: wall)
}

/// The token storm of issue 19, small: 200 calls with an expired token, without and with a
/// concurrency limit of 8 above auth, counted at the server.
@discardableResult
func showStorm(calls: Int = 200, auth: AuthOptions = .default) async throws -> [StormDemoRun] {
    heading("A token storm: \(calls) concurrent calls meet an expired token, without and with a limit")
    var runs: [StormDemoRun] = []
    for limited in [false, true] {
        let run = try await storm(calls: calls, limited: limited, auth: auth)
        let milliseconds = Int((run.wall / .milliseconds(1)).rounded())
        print(
            "   \(limited ? "ConcurrencyLimitMiddleware(limit: 8) -> AuthMiddleware" : "AuthMiddleware alone")"
        )
        print(
            "     the server received \(String(format: "%.2f", run.roundTripsPerCall)) requests per call, "
                + "\(run.refreshes) refresh, \(run.succeeded) of \(calls) answered 200, in \(milliseconds) ms")
        runs.append(run)
    }
    print(
        """
           Without the limit every call leaves with the expired token before the first 401 comes back,
           and is sent twice. With 8 in flight above auth, only the first few carry it: the others take
           the refreshed token when their turn comes.
        """)
    return runs
}

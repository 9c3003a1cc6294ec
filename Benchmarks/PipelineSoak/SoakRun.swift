import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A soak run: many requests through the standard pipeline over a ``FaultInjectingTransport``,
/// with every invariant checked at the end.
///
/// The invariants: every request ends in exactly one outcome (none lost, none answered twice);
/// every 200 carries the request's own body, decoded once; only the requests the caller
/// cancelled end cancelled, and each of those does; no error is of an unexpected type; the client
/// refreshed once per revoked token, and never sent a refresh token twice, even when a refresh
/// outlasted auth's timeout or its answer was lost (the token endpoint rotates and loses one
/// answer in ten); nobody is logged out; storage holds the credential in use; no request was replayed under
/// another account than it was sent as, across the run's account switches; no log record holds a
/// token.
package enum SoakRun {
    /// Warms up, then runs `configuration.requests` requests through a fresh pipeline, reading
    /// resident memory before the first and after the last while that pipeline is still alive.
    package static func run(_ configuration: SoakConfiguration) async -> SoakReport {
        if configuration.warmUpRequests > 0 {
            _ = await exercise(configuration, requests: configuration.warmUpRequests)
        }
        return await exercise(configuration, requests: configuration.requests)
    }

    /// Sends `requests` requests through a fresh pipeline and server, `configuration.concurrency`
    /// at a time, and checks the invariants.
    static func exercise(_ configuration: SoakConfiguration, requests: Int) async -> SoakReport {
        var report = SoakReport()
        report.requests = requests
        let server = SoakServer(requests: requests, grace: configuration.tokenReuseGrace)
        let sink = SecretScanningSink()
        let tokens = OAuth2TokenSource(
            configuration: OAuth2Configuration(
                tokenEndpoint: SoakTokenEndpoint.url, clientID: "soak", reuseGrace: configuration.tokenReuseGrace),
            tokenPipeline: SoakTokenEndpoint(
                server: server, slowEvery: configuration.slowRefreshEvery, slowness: configuration.slowRefresh,
                loseEvery: configuration.lostTokenAnswerEvery),
            storage: SoakTokenStorage(server: server))
        let auth = AuthMiddleware(
            source: tokens,
            options: AuthOptions(
                refreshTimeout: configuration.refreshTimeout, refreshLimit: Int.max, refreshLimitWindow: .seconds(1))
        )
        let pipeline: any HTTPTransport
        do {
            let built = try StandardPipeline.build(
                over: FaultInjectingTransport(server: server, configuration: configuration),
                options: options(auth: auth, sink: sink)
            )
            if !built.orderingDiagnostics.isEmpty {
                report.violations.append("the standard pipeline has ordering diagnostics")
            }
            pipeline = built
        } catch {
            report.violations.append("the pipeline could not be built: \(error)")
            return report
        }
        let tally = Tally(requests: requests)
        report.residentBefore = ResidentMemory.current()
        let clock = ContinuousClock()
        let start = clock.now
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            while next < min(configuration.concurrency, requests) {
                let id = next
                group.addTask { await send(id, through: pipeline, configuration: configuration, tally: tally) }
                next += 1
            }
            let switchEvery = requests / (configuration.accountSwitches + 1)
            while await group.next() != nil, next < requests {
                let id = next
                if configuration.accountSwitches > 0, switchEvery > 0, id % switchEvery == 0,
                    id / switchEvery <= configuration.accountSwitches
                {
                    await switchAccount(auth, tokens: tokens, server: server, report: &report)
                }
                group.addTask { await send(id, through: pipeline, configuration: configuration, tally: tally) }
                next += 1
            }
        }
        report.seconds = start.duration(to: clock.now).seconds
        report.residentAfter = ResidentMemory.current()
        tally.finish(into: &report)
        report.violations += outcomeBounds(report, configuration)
        _ = try? await pipeline.send(HTTPRequest(url: SoakRequest.checkURL))
        if !server.storageHoldsTheCredentialInUse {
            report.violations.append("storage does not hold the credential the pipeline uses")
        }
        report.revocations = server.revocations
        report.refreshes = server.refreshes
        report.accounts = server.accounts
        report.tokenAnswersLost = server.answersLost
        report.graceReuses = server.graceReuses
        report.violations += server.violations
        (report.logRecords, report.logRecordsWithSecrets) = sink.counts
        if report.logRecordsWithSecrets > 0 {
            report.violations.append("\(report.logRecordsWithSecrets) log records hold a token")
        }
        return report
    }

    /// How the outcomes must be spread for the pipeline to be doing its job: retry leaves few of
    /// the retryable failures it met, and the other outcomes stay near what was injected.
    package static func outcomeBounds(_ report: SoakReport, _ configuration: SoakConfiguration) -> [String] {
        let requests = Double(report.requests)
        let count = { (outcome: SoakOutcome) in Double(report.outcomes[outcome, default: 0]) }
        var violations: [String] = []
        let retryable = count(.status(503)) + count(.status(429)) + count(.transportError)
        let retryableRate =
            configuration.unavailableRate + configuration.throttledRate
            + configuration.transportErrorRate
        // Three attempts leave about rate³ of them; no retry at all would leave `rate`.
        if retryable > 0.2 * retryableRate * requests + 5 {
            violations.append("\(Int(retryable)) requests ended in a retryable failure: retry is not retrying")
        }
        let expectedCancelled = configuration.cancellationRate * requests
        if count(.cancelled) < 0.5 * expectedCancelled - 5 || count(.cancelled) > 2 * expectedCancelled + 5 {
            violations.append(
                "\(Int(count(.cancelled))) requests ended cancelled, about \(Int(expectedCancelled)) were")
        }
        if count(.gzipError) > 2 * configuration.corruptGzipRate * requests + 5 {
            violations.append("\(Int(count(.gzipError))) requests failed to decode, more than were corrupted")
        }
        // A 401 ends a request whose replay met a second revocation (a burst of replays with
        // one new token, any of which may revoke it) or an account switch; without refreshes,
        // nearly every request would.
        if count(.status(401)) > max(0.1, 20 * configuration.revocationRate) * requests + 5 {
            violations.append("\(Int(count(.status(401)))) requests ended 401: auth is not refreshing")
        }
        // Requests that outwait a slow refresh fail by design; many more means refreshes stall.
        if count(.refreshTimedOut) > 0.15 * requests + 5 {
            violations.append("\(Int(count(.refreshTimedOut))) requests timed out waiting for a refresh")
        }
        if count(.loggedOut) > 0 {
            violations.append("\(Int(count(.loggedOut))) requests were logged out")
        }
        let succeeded = count(.ok)
        if succeeded < 0.9 * (requests - count(.cancelled) - count(.gzipError) - count(.refreshTimedOut)) {
            violations.append("only \(Int(succeeded)) of \(Int(requests)) requests succeeded")
        }
        return violations
    }

    /// Signs in to a new account on the server and hands its credential to auth.
    private static func switchAccount(
        _ auth: AuthMiddleware, tokens: OAuth2TokenSource, server: SoakServer, report: inout SoakReport
    ) async {
        let (access, refresh) = server.signIn()
        do {
            try await tokens.signIn(with: OAuth2Token(accessToken: access, refreshToken: refresh), on: auth)
        } catch {
            report.violations.append("an account switch failed: \(error)")
        }
    }

    private static func options(auth: AuthMiddleware, sink: SecretScanningSink) -> StandardOptions {
        StandardOptions(
            headers: [.fixed("User-Agent", "pipeline-soak/1")],
            retry: .attempts(3, backoff: .exponential(base: .milliseconds(1), cap: .milliseconds(4))),
            authMiddleware: auth,
            logging: .init(level: .headers, sink: sink),
            gzip: .default
        )
    }

    /// Sends request `id` (cancelling it if the schedule says so) and records how it ended.
    private static func send(
        _ id: Int,
        through pipeline: any HTTPTransport,
        configuration: SoakConfiguration,
        tally: Tally
    ) async {
        var random = SeededRandomNumberGenerator(seed: configuration.seed &+ UInt64(id) &* 0xD1B5_4A32_D192_ED03)
        let cancels = Double.random(in: 0..<1, using: &random) < configuration.cancellationRate
        let request = HTTPRequest(url: SoakRequest.url(id: id, hang: cancels))
        // The exchange ends when the caller has the body: reading it is part of the request.
        let exchange: @Sendable () async throws -> (HTTPResponse, Data) = {
            let response = try await pipeline.send(request)
            return (response, try await response.body.collect(upTo: 1 << 20))
        }
        let result: Result<(HTTPResponse, Data), any Error>
        if cancels {
            let task = Task { try await exchange() }
            try? await Task.sleep(for: .milliseconds(1))
            task.cancel()
            result = await task.result
        } else {
            do { result = .success(try await exchange()) } catch { result = .failure(error) }
        }
        tally.record(id, classify(result, id: id, cancelled: cancels))
    }

    private static func classify(
        _ result: Result<(HTTPResponse, Data), any Error>,
        id: Int,
        cancelled: Bool
    ) -> (SoakOutcome?, String?) {
        switch result {
        case .success(let (response, body)):
            // A request to be cancelled waits for its cancel only once the server accepted its
            // token: a 401 that ended it sooner (a replay that met a second revocation) is fair.
            if cancelled, response.status != 401 {
                return (.status(response.status.code), "request \(id) was cancelled but answered")
            }
            guard response.status == 200 else { return (.status(response.status.code), nil) }
            guard body == SoakRequest.expectedBody(id: id) else {
                return (.ok, "request \(id) got a body that is not its own, decoded exactly once")
            }
            return (.ok, nil)
        case .failure(let error as CancellationError):
            _ = error
            return (.cancelled, cancelled ? nil : "request \(id) ended cancelled without being cancelled")
        case .failure(let error):
            if (error as? AuthError)?.isRefreshTimedOut == true { return (.refreshTimedOut, nil) }
            if let error = error as? AuthError, error.isReauthenticationRequired {
                return (.loggedOut, cancelled ? nil : "request \(id) was logged out: \(error)")
            }
            if cancelled { return (nil, "request \(id) was cancelled but failed with \(error)") }
            if error is URLError { return (.transportError, nil) }
            if error is GzipError { return (.gzipError, nil) }
            return (nil, "request \(id) failed with an unexpected error: \(error)")
        }
    }
}

/// Counts answers per request and outcomes, under a lock.
private final class Tally: Sendable {
    private struct State {
        var answers: [UInt8]
        var outcomes: [SoakOutcome: Int] = [:]
        var violations: [String] = []
    }

    private let state: Locked<State>

    init(requests: Int) {
        state = Locked(State(answers: Array(repeating: 0, count: requests)))
    }

    func record(_ id: Int, _ classified: (SoakOutcome?, String?)) {
        state.withLock { state in
            state.answers[id] &+= 1
            if let outcome = classified.0 { state.outcomes[outcome, default: 0] += 1 }
            if let violation = classified.1, state.violations.count < 20 { state.violations.append(violation) }
        }
    }

    func finish(into report: inout SoakReport) {
        state.withLock { state in
            report.outcomes = state.outcomes
            report.violations += state.violations
            let lost = state.answers.filter { $0 == 0 }.count
            let twice = state.answers.filter { $0 > 1 }.count
            if lost > 0 { report.violations.append("\(lost) requests never ended") }
            if twice > 0 { report.violations.append("\(twice) requests ended more than once") }
        }
    }
}

/// Counts log records and those whose text holds a soak token.
private final class SecretScanningSink: HTTPLogSink {
    private let state = Locked((records: 0, withSecrets: 0))

    var counts: (Int, Int) { state.withLock { ($0.records, $0.withSecrets) } }

    func write(_ record: HTTPLogRecord) {
        let leaked = record.formatted.contains(SoakServer.secretPrefix)
        state.withLock { state in
            state.records += 1
            if leaked { state.withSecrets += 1 }
        }
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineLogging
import HTTPPipelineRedirect
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import Testing

/// The pairs with a timeout (**T**): T–R, T–A, T–D, T–L. The timeout is the first of each pair:
/// `firstOutside` lists `TimeoutMiddleware` first. Every layer and the transport share one
/// manual clock, moved in 100 ms steps while the call runs.
@Suite("Pair matrix: timeouts with retry, auth, redirects and logging")
struct PairMatrixTimeoutTests {
    static let start = "https://api.example.invalid/books/1"
    static let elsewhere = "https://cdn.example.invalid/books/1"

    /// Sends `request` through the pair in `order` while stepping `clock`.
    static func observe(
        _ setup: PairSetup, _ order: PairOrder, on clock: ManualClock,
        _ request: HTTPRequest = HTTPRequest(url: orderingURL)
    ) async -> PairObservation? {
        try? await clock.run { await setup.observe(order, request) }.get()
    }

    static func retry(_ clock: ManualClock, backoff: Backoff = .immediate) -> RetryMiddleware {
        RetryMiddleware(policy: .attempts(3, backoff: backoff), budget: nil, clock: clock)
    }

    static func isTimeout(_ outcome: PairOutcome?, _ limit: String) -> Bool {
        guard case .failure(let text)? = outcome else { return false }
        return text.hasPrefix("HTTPTimeoutError") && text.contains(limit)
    }

    // MARK: T–R

    @Test(
        "A per-attempt timeout outside retry cuts the whole call once; inside retry it cuts each attempt, which is retried"
    )
    func aPerAttemptTimeoutOutsideRetryCutsTheCallInsideItCutsEachAttempt() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let transport = ScriptedTransport(
                [.ok("slow").delayed(by: .seconds(5)), .ok("slow").delayed(by: .seconds(5)), .ok("{}")], clock: clock)
            let setup = PairSetup(
                "T–R", TimeoutMiddleware.perAttempt(.seconds(2), clock: clock), Self.retry(clock),
                transport: transport)
            let observed = try #require(await Self.observe(setup, order, on: clock))
            let label = setup.label(order)
            switch order {
            case .firstOutside:
                #expect(Self.isTimeout(observed.outcome, "2 s timeout"), "\(label): \(observed.outcome)")
                #expect(observed.sent.count == 1, "\(label): cut during the first attempt")
            case .secondOutside:
                #expect(observed.outcome.status == 200, "\(label): \(observed.outcome)")
                #expect(observed.sent.count == 3, "\(label): two attempts cut, the third answers")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.outcome != seen[.secondOutside]?.outcome, "T–R: the outcome must differ")
    }

    @Test(
        "A deadline outside retry bounds every attempt and wait together; inside retry each attempt gets a fresh one"
    )
    func aDeadlineOutsideRetryBoundsTheCallInsideItRestartsWithEveryAttempt() async throws {
        let exact = Backoff.exponential(base: .seconds(1), multiplier: 2, cap: .seconds(8), jitter: .none)
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let transport = ScriptedTransport(clock: clock) { _ in
                ScriptedTransport.Reply.status(503).delayed(by: .seconds(2))
            }
            let setup = PairSetup(
                "T–R", TimeoutMiddleware.deadline(.seconds(5), clock: clock), Self.retry(clock, backoff: exact),
                transport: transport)
            let observed = try #require(await Self.observe(setup, order, on: clock))
            let label = setup.label(order)
            switch order {
            case .firstOutside:
                #expect(Self.isTimeout(observed.outcome, "5 s deadline"), "\(label): \(observed.outcome)")
                #expect(observed.sent.count == 2, "\(label): 503 at 2 s, a 1 s wait, cut during the second")
            case .secondOutside:
                #expect(observed.outcome.status == 503, "\(label): \(observed.outcome)")
                #expect(observed.sent.count == 3, "\(label): three attempts of 2 s, each within its own 5 s")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.outcome != seen[.secondOutside]?.outcome, "T–R: the outcome must differ")
    }

    // MARK: T–A

    @Test("A deadline outside auth counts the token refresh against the call; inside auth the refresh is not counted")
    func aDeadlineOutsideAuthCountsTheRefreshInsideItDoesNot() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let transport = ScriptedTransport(clock: clock) { request in
                request.fields["Authorization"] == "Bearer token-1" ? .ok("{}") : .status(401)
            }
            let auth = AuthMiddleware(source: SlowRefreshCredentials(clock: clock, refresh: .seconds(3)), clock: clock)
            let setup = PairSetup(
                "T–A", TimeoutMiddleware.deadline(.seconds(2), clock: clock), auth, transport: transport)
            let observed = try #require(await Self.observe(setup, order, on: clock))
            let label = setup.label(order)
            switch order {
            case .firstOutside:
                #expect(Self.isTimeout(observed.outcome, "2 s deadline"), "\(label): \(observed.outcome)")
                #expect(observed.sentHeader("Authorization") == ["Bearer token-0"], "\(label): cut in the refresh")
            case .secondOutside:
                #expect(observed.outcome.status == 200, "\(label): \(observed.outcome)")
                #expect(observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-1"], "\(label)")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent != seen[.secondOutside]?.sent, "T–A: the wire must differ")
    }

    // MARK: T–D

    @Test("A deadline outside redirects bounds every hop together; inside redirects each hop gets a fresh one")
    func aDeadlineOutsideRedirectsBoundsAllHopsInsideItRestartsWithEveryHop() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let transport = ScriptedTransport(clock: clock) { request in
                let reply: ScriptedTransport.Reply =
                    request.url.absoluteString == Self.start
                    ? .status(302, headers: ["Location": Self.elsewhere]) : .ok("{}")
                return reply.delayed(by: .milliseconds(1_500))
            }
            let setup = PairSetup(
                "T–D", TimeoutMiddleware.deadline(.seconds(2), clock: clock), RedirectMiddleware(),
                transport: transport)
            let request = HTTPRequest(url: URL(string: Self.start) ?? orderingURL)
            let observed = try #require(await Self.observe(setup, order, on: clock, request))
            let label = setup.label(order)
            #expect(observed.sent.map(\.url) == [Self.start, Self.elsewhere], "\(label): both hops sent")
            switch order {
            case .firstOutside:
                #expect(Self.isTimeout(observed.outcome, "2 s deadline"), "\(label): 3 s of hops")
            case .secondOutside:
                #expect(observed.outcome.status == 200, "\(label): 1.5 s per hop")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.outcome != seen[.secondOutside]?.outcome, "T–D: the outcome must differ")
    }

    // MARK: T–L

    @Test("Logging inside a deadline records the cut exchange as cancelled; logging outside records the timeout")
    func loggingInsideADeadlineRecordsACancellationOutsideItRecordsTheTimeout() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let sink = InMemoryLogSink()
            let transport = ScriptedTransport([.ok("slow").delayed(by: .seconds(5))], clock: clock)
            let setup = PairSetup(
                "T–L", TimeoutMiddleware.deadline(.seconds(2), clock: clock),
                LoggingMiddleware(level: .basic, sink: sink), transport: transport, sink: sink)
            let observed = try #require(await Self.observe(setup, order, on: clock))
            let label = setup.label(order)
            #expect(Self.isTimeout(observed.outcome, "2 s deadline"), "\(label): the caller gets the timeout")
            switch order {
            case .firstOutside:
                #expect(observed.records.map(\.outcome) == [.failure(kind: "cancelled")], "\(label)")
            case .secondOutside:
                #expect(observed.records.map(\.outcome) == [.failure(kind: "HTTPTimeoutError")], "\(label)")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent == seen[.secondOutside]?.sent, "T–L: the wire is the same")
        #expect(seen[.firstOutside]?.records != seen[.secondOutside]?.records, "T–L: the records must differ")
    }
}

/// Starts with `token-0`; each refresh takes `refresh` on the clock and hands out `token-1`, `token-2`, …
final class SlowRefreshCredentials: CredentialSource {
    private let clock: ManualClock
    private let refresh: Duration
    private let refreshes = Locked(0)

    init(clock: ManualClock, refresh: Duration) {
        self.clock = clock
        self.refresh = refresh
    }

    func currentCredential() async throws -> Credential? {
        .bearer("token-\(refreshes.value)")
    }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        try await clock.sleep(for: refresh)
        let number = refreshes.withLock { count in
            count += 1
            return count
        }
        return .bearer("token-\(number)")
    }
}

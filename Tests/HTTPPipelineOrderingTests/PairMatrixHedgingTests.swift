import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineHedging
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import Testing

/// The pairs with hedging (**Hg**): Hg–R, Hg–A, Hg–D (deadline), Hg–P (per-attempt timeout),
/// Hg–L. Hedging is the first of each pair: `firstOutside` lists `HedgingMiddleware` first. Every
/// layer and the transport share one manual clock, moved from deadline to deadline while the call
/// runs.
@Suite("Pair matrix: hedging with retry, auth, timeouts and logging")
struct PairMatrixHedgingTests {
    static func observe(_ setup: PairSetup, _ order: PairOrder, on clock: ManualClock) async -> PairObservation? {
        try? await clock.run { await setup.observe(order) }.get()
    }

    static func hedging(_ clock: ManualClock, after delay: Duration = .seconds(1)) -> HedgingMiddleware {
        HedgingMiddleware(policy: .after(delay), budget: nil, clock: clock)
    }

    /// A transport answering the first attempt of the call (hedge number 1 of retry's first
    /// attempt, say) with `first` and every later request with `later`, recording when each came.
    static func firstThen(
        _ first: ScriptedTransport.Reply, _ later: ScriptedTransport.Reply, clock: ManualClock,
        times: Locked<[Duration]>
    ) -> ScriptedTransport {
        ScriptedTransport(clock: clock) { _ in
            let count = times.withLock { times in
                times.append(clock.now.offset)
                return times.count
            }
            return count == 1 ? first : later
        }
    }

    // MARK: Hg–R

    @Test("Hedging inside retry leaves a fast 503 to retry's backoff; outside retry it sends a hedge during the wait")
    func hedgingInsideRetryKeepsTheBackoffOutsideItHedgesDuringTheWait() async throws {
        var seen: [PairOrder: [Duration]] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let times = Locked<[Duration]>([])
            let transport = Self.firstThen(.status(503), .ok("{}"), clock: clock, times: times)
            let retry = RetryMiddleware(
                policy: .attempts(3, backoff: .constant(.seconds(2))), budget: nil, clock: clock)
            let setup = PairSetup("Hg–R", Self.hedging(clock, after: .milliseconds(100)), retry, transport: transport)
            let observed = try #require(await Self.observe(setup, order, on: clock))
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): \(observed.outcome)")
            switch order {
            case .firstOutside:
                #expect(times.value == [.zero, .milliseconds(100)], "\(label): the hedge went out during the 2 s wait")
            case .secondOutside:
                #expect(times.value == [.zero, .seconds(2)], "\(label): the second request waited for the backoff")
            }
            seen[order] = times.value
        }
        #expect(seen[.firstOutside] != seen[.secondOutside], "Hg–R: the wire must differ")
    }

    // MARK: Hg–A

    @Test("Hedging inside auth waits for one refresh; outside auth a slow refresh starts a hedge that is sent twice")
    func hedgingInsideAuthSendsOnceAfterTheRefreshOutsideItHedgesTheRefresh() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let transport = ScriptedTransport(clock: clock) { request in
                request.fields["Authorization"] == "Bearer token-0" ? .status(401) : .ok("{}")
            }
            let auth = AuthMiddleware(source: SlowRefreshCredentials(clock: clock, refresh: .seconds(3)), clock: clock)
            let setup = PairSetup("Hg–A", Self.hedging(clock), auth, transport: transport)
            let observed = try #require(await Self.observe(setup, order, on: clock))
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): \(observed.outcome)")
            switch order {
            case .firstOutside:
                #expect(
                    observed.sentHeader("Authorization")
                        == ["Bearer token-0", "Bearer token-0", "Bearer token-1", "Bearer token-1"],
                    "\(label): the hedge goes out with the stale token during the refresh, then again with the new one")
            case .secondOutside:
                #expect(observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-1"], "\(label)")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent != seen[.secondOutside]?.sent, "Hg–A: the wire must differ")
    }

    // MARK: Hg–D and Hg–P

    /// The first attempt stalls; a hedge at 1 s answers 1.5 s later, at 2.5 s: after a 2 s limit
    /// measured from the call's start, before one measured from the hedge's.
    static func stalledFirstHedgeAnswersLate(_ clock: ManualClock) -> ScriptedTransport {
        ScriptedTransport(clock: clock) { request in
            request.context.hedgeAttempt == 2
                ? .ok("hedge").delayed(by: .milliseconds(1_500)) : .ok().delayed(by: .seconds(30))
        }
    }

    @Test(
        "A timeout outside hedging bounds every copy together; inside it each copy gets its own limit and the hedge wins",
        arguments: [false, true])
    func aTimeoutOutsideHedgingCutsTheCallInsideItCutsOneAttempt(perAttempt: Bool) async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let timeout =
                perAttempt
                ? TimeoutMiddleware.perAttempt(.seconds(2), clock: clock) : .deadline(.seconds(2), clock: clock)
            let setup = PairSetup(
                perAttempt ? "Hg–P" : "Hg–D", Self.hedging(clock), timeout,
                transport: Self.stalledFirstHedgeAnswersLate(clock))
            let observed = try #require(await Self.observe(setup, order, on: clock))
            let label = setup.label(order)
            #expect(observed.sent.count == 2, "\(label): the first attempt and its hedge")
            switch order {
            case .firstOutside:
                #expect(observed.outcome.body == Data("hedge".utf8), "\(label): \(observed.outcome)")
            case .secondOutside:
                let limit = perAttempt ? "2 s timeout" : "2 s deadline"
                #expect(PairMatrixTimeoutTests.isTimeout(observed.outcome, limit), "\(label): \(observed.outcome)")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.outcome != seen[.secondOutside]?.outcome, "the outcome must differ")
    }

    // MARK: Hg–L

    @Test("Logging inside hedging records every attempt, the cancelled loser too; outside it, one record per call")
    func loggingInsideHedgingRecordsEveryAttemptOutsideItOne() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let sink = InMemoryLogSink()
            let transport = ScriptedTransport(clock: clock) { request in
                request.context.hedgeAttempt == 2 ? .ok("{}").delayed(by: .seconds(1)) : .ok().delayed(by: .seconds(9))
            }
            let setup = PairSetup(
                "Hg–L", Self.hedging(clock), LoggingMiddleware(level: .basic, sink: sink), transport: transport,
                sink: sink)
            let observed = try #require(await Self.observe(setup, order, on: clock))
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label)")
            switch order {
            case .firstOutside:
                #expect(
                    observed.records.map(\.outcome) == [.response(status: 200), .failure(kind: "cancelled")], "\(label)"
                )
            case .secondOutside:
                #expect(observed.records.map(\.outcome) == [.response(status: 200)], "\(label)")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent == seen[.secondOutside]?.sent, "Hg–L: the wire is the same")
        #expect(seen[.firstOutside]?.records != seen[.secondOutside]?.records, "Hg–L: the records must differ")
    }
}

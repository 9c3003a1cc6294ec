import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineCircuitBreaker
import HTTPPipelineConcurrencyLimit
import HTTPPipelineHeaders
import HTTPPipelineHedging
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineTimeout
import TestSupport
import Testing

/// The standard stack's resilience profile (a concurrency limit and a circuit breaker joining the
/// timeouts and retry), and the ordering rules of the two new roles, each checked both ways.
@Suite struct ResilienceProfileTests {
    struct Tokens: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("t") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("t") }
    }

    static let profileOrder = [
        "TimeoutMiddleware.deadline", "DefaultHeaders", "ConcurrencyLimitMiddleware", "RedirectMiddleware",
        "RetryMiddleware", "CircuitBreakerMiddleware", "TimeoutMiddleware.perAttempt", "AuthMiddleware",
        "HedgingMiddleware", "GzipMiddleware",
    ]

    static func profile(clock: ManualClock) -> StandardOptions {
        StandardOptions(
            headers: [.fixed("User-Agent", "Shelf/2.3")],
            totalTimeout: .seconds(30),
            concurrencyLimit: ConcurrencyLimitMiddleware(limit: 8, clock: clock),
            retry: .attempts(3, backoff: .immediate),
            circuitBreaker: CircuitBreakerMiddleware(clock: clock),
            attemptTimeout: .seconds(5),
            credentials: Tokens(),
            // No budget: the default one pays for a hedge only after ten calls.
            hedging: HedgingMiddleware(policy: .after(.milliseconds(300)), budget: nil, clock: clock),
            clock: clock)
    }

    @Test func theLimitIsOnAndTheBreakerAndHedgingAreOffByDefault() throws {
        let pipeline = try StandardPipeline.build(over: ScriptedTransport([]))
        #expect(pipeline.layerNames.contains("ConcurrencyLimitMiddleware"))
        #expect(StandardOptions().concurrencyLimit?.limit == StandardOptions.defaultConcurrencyLimitSlots)
        #expect(!pipeline.layerNames.contains("CircuitBreakerMiddleware"))
        #expect(!pipeline.layerNames.contains("HedgingMiddleware"))
    }

    @Test func theProfileHasTheDocumentedOrderInBothBuildBranchesAndNoDiagnostics() throws {
        let clock = ManualClock()
        let inlined = try StandardPipeline.build(over: ScriptedTransport([]), options: Self.profile(clock: clock))
        #expect(inlined.layerNames == Self.profileOrder)
        #expect(inlined.orderingDiagnostics.isEmpty, "\(inlined.orderingDiagnostics)")
        var options = Self.profile(clock: clock)
        options.insert(Spy("outsideRetry"), at: .outsideRetry)
        options.insert(Spy("insideRetry"), at: .insideRetry)
        let inserted = try StandardPipeline.build(over: ScriptedTransport([]), options: options)
        #expect(
            inserted.layerNames == [
                "TimeoutMiddleware.deadline", "DefaultHeaders", "ConcurrencyLimitMiddleware", "outsideRetry",
                "RedirectMiddleware", "RetryMiddleware", "CircuitBreakerMiddleware", "TimeoutMiddleware.perAttempt",
                "insideRetry", "AuthMiddleware", "HedgingMiddleware", "GzipMiddleware",
            ])
        #expect(inserted.orderingDiagnostics.isEmpty, "\(inserted.orderingDiagnostics)")
    }

    @Test func aFailingServiceOpensTheProfilesBreakerAndEveryCallGivesItsSlotBack() async throws {
        let clock = ManualClock()
        let options = Self.profile(clock: clock)
        let transport = ScriptedTransport(clock: clock) { _ in .status(503) }
        let pipeline = try StandardPipeline.build(over: transport, options: options)
        for _ in 0..<4 {
            _ = await clock.run { try await pipeline.send(HTTPRequest(url: orderingURL)) }
        }
        #expect(transport.requests.count == 10, "three attempts per call until the tenth opens the circuit")
        let rejected = await clock.run { try await pipeline.send(HTTPRequest(url: orderingURL)) }
        #expect(throws: CircuitOpenError.self) { try rejected.get() }
        #expect(transport.requests.count == 10)
        #expect(options.concurrencyLimit?.inFlightCount == 0)
    }

    @Test func aSlowAttemptInTheProfileIsHedgedWithTheCredentialAndEachCopyIsLogged() async throws {
        // The clock moves once, to the hedge's 300 ms, when the first attempt is out: the first
        // attempt hangs until cancelled and the hedge answers at once, so no attempt timeout or
        // deadline can fire however slowly a loaded machine runs the tasks (a clock moved on
        // quiet periods, or real time, let one fire in a full sanitized run on two cores).
        let clock = ManualClock()
        var options = Self.profile(clock: clock)
        let sink = InMemoryLogSink()
        options.logging = .init(level: .basic, sink: sink)
        let served = Locked(0)
        let transport = ScriptedTransport { _ in
            let number = served.withLock { count in
                count += 1
                return count
            }
            if number == 1 { try await Task.sleep(for: .seconds(3600)) }
            return .ok(number == 1 ? "slow" : "hedge")
        }
        let pipeline = try StandardPipeline.build(over: transport, options: options)
        let call = Task { try await pipeline.send(HTTPRequest(url: orderingURL)) }
        let hedgeAt = clock.now.advanced(by: .milliseconds(300))
        let armed = await eventually {
            transport.requests.count == 1 && (clock.pendingDeadlines + clock.pendingTimers).contains(hedgeAt)
        }
        #expect(
            armed,
            """
            the first attempt is out and the hedge waits for 300 ms: \(transport.requests.count) sent, \
            timers \(clock.pendingTimers.map { $0.offset }), deadlines \(clock.pendingDeadlines.map { $0.offset }), \
            hedge at \(hedgeAt.offset)
            """)
        if !armed { call.cancel() }
        clock.advance(to: hedgeAt)
        let response = try await call.value
        #expect(try await response.body.collect(upTo: 100) == Data("hedge".utf8))
        #expect(transport.requests.count == 2, "the first attempt and its hedge at 300 ms")
        #expect(transport.requests.allSatisfy { $0.fields["Authorization"] == "Bearer t" })
        await eventually { sink.records.count == 2 }
        #expect(sink.records.count == 2, "each copy logged: \(sink.records.map(\.outcome))")
        #expect(options.concurrencyLimit?.inFlightCount == 0)
    }

    // MARK: The rules, both ways

    func reasons(_ layers: [any HTTPMiddleware]) -> [String] {
        Pipeline(transport: ScriptedTransport([]), middleware: layers).orderingDiagnostics.map {
            "\($0.layer) \($0.expectation.side == .outside ? "outside" : "inside") \($0.expectation.role) \($0.other)"
        }
    }

    @Test func aLimitOutsideAuthIsCleanAndInsideIsReported() {
        let limit = ConcurrencyLimitMiddleware(limit: 8)
        let auth = AuthMiddleware(source: Tokens(), clock: ManualClock())
        #expect(reasons([limit, auth]).isEmpty)
        #expect(reasons([auth, limit]) == ["ConcurrencyLimitMiddleware outside auth AuthMiddleware"])
    }

    @Test func aLimitInsideTheDeadlineIsCleanAndOutsideIsReported() {
        let limit = ConcurrencyLimitMiddleware(limit: 8)
        let deadline = TimeoutMiddleware.deadline(.seconds(10))
        #expect(reasons([deadline, limit]).isEmpty)
        #expect(
            reasons([limit, deadline]) == ["ConcurrencyLimitMiddleware inside deadline TimeoutMiddleware.deadline"])
    }

    @Test func aLimitEitherSideOfRetryIsClean() {
        let limit = ConcurrencyLimitMiddleware(limit: 8)
        let retry = RetryMiddleware(policy: .default, clock: ManualClock())
        #expect(reasons([limit, retry]).isEmpty)
        #expect(reasons([retry, limit]).isEmpty, "a limit on attempts is a choice, not a mistake")
    }

    @Test func aBreakerInsideRetryIsCleanAndOutsideIsReported() {
        let breaker = CircuitBreakerMiddleware()
        let retry = RetryMiddleware(policy: .default, clock: ManualClock())
        #expect(reasons([retry, breaker]).isEmpty)
        #expect(reasons([breaker, retry]) == ["CircuitBreakerMiddleware inside retry RetryMiddleware"])
    }

    @Test func aBreakerOutsideThePerAttemptTimeoutIsCleanAndInsideIsReported() {
        let breaker = CircuitBreakerMiddleware()
        let attempt = TimeoutMiddleware.perAttempt(.seconds(3))
        #expect(reasons([breaker, attempt]).isEmpty)
        #expect(
            reasons([attempt, breaker]) == [
                "CircuitBreakerMiddleware outside attempt-timeout TimeoutMiddleware.perAttempt"
            ])
    }
}

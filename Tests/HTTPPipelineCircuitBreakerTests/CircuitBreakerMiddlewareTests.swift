import Foundation
import HTTPPipeline
import HTTPPipelineCircuitBreaker
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite struct CircuitBreakerMiddlewareTests {
    static func policy(
        minimum: Int = 4, ratio: Double = 0.5, window: Duration = .seconds(10), breakFor: Duration = .seconds(30),
        probes: Int = 1
    ) -> CircuitBreakerPolicy {
        CircuitBreakerPolicy(
            failureRatio: ratio, minimumThroughput: minimum, samplingDuration: window, breakDuration: breakFor,
            halfOpenProbes: probes)
    }

    @Test func theCircuitOpensAtTheFailureRatioOnlyOnceTheMinimumThroughputIsReached() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(), clock: clock)
        let transport = ScriptedTransport([.ok(), .status(503), .ok(), .status(503), .ok()], clock: clock)
        let pipeline = Pipeline(transport: transport) { breaker }
        for _ in 0..<3 { _ = await call(pipeline) }
        #expect(breaker.state(for: HTTPRequest(url: url())) == .closed, "three calls: below the minimum")
        _ = await call(pipeline)
        #expect(breaker.state(for: HTTPRequest(url: url())) == .open, "two failures in four reach the ratio")
        #expect(await call(pipeline).rejection != nil)
        #expect(transport.requests.count == 4)
    }

    @Test func failuresBelowTheRatioKeepTheCircuitClosed() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(), clock: clock)
        let transport = ScriptedTransport([.ok(), .ok(), .ok(), .status(500), .ok(), .ok()], clock: clock)
        let pipeline = Pipeline(transport: transport) { breaker }
        for _ in 0..<6 { _ = await call(pipeline) }
        #expect(breaker.state(for: HTTPRequest(url: url())) == .closed)
        #expect(transport.requests.count == 6)
    }

    @Test func underATotalOutageTheCircuitOpensWithinItsWindowAndSendsNothingWhileOpen() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 5), clock: clock)
        let transport = ScriptedTransport(clock: clock) { _ in .failure(URLError(.cannotConnectToHost)) }
        let pipeline = Pipeline(transport: transport) { breaker }
        var openedAt: Duration?
        for second in 0..<10 where openedAt == nil {
            _ = await call(pipeline)
            if breaker.state(for: HTTPRequest(url: url())) == .open { openedAt = .seconds(second) }
            clock.advance(by: .seconds(1))
        }
        #expect(openedAt == .seconds(4), "the fifth failure, four seconds in: within the 10 s window")
        #expect(transport.requests.count == 5)
        for _ in 0..<100 {
            let rejection = await call(pipeline).rejection
            #expect(rejection?.state == .open)
            #expect(rejection?.retryAfter == .seconds(29), "the break's 30 s, less the second since it opened")
        }
        clock.advance(by: .seconds(28))
        #expect(await call(pipeline).rejection?.retryAfter == .seconds(1))
        #expect(transport.requests.count == 5, "0 requests sent while open")
        clock.advance(by: .seconds(1))
        _ = await call(pipeline)
        #expect(transport.requests.count == 6, "one probe once the break is over")
        #expect(breaker.state(for: HTTPRequest(url: url())) == .open, "the failed probe reopened it")
        #expect(await call(pipeline).rejection?.retryAfter == .seconds(30))
        #expect(transport.requests.count == 6)
    }

    @Test func aSuccessfulProbeClosesTheCircuitAndAFailedOneReopensIt() async throws {
        let clock = ManualClock()
        let log = ChangeLog()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 2), clock: clock, onStateChange: log.record)
        let transport = ScriptedTransport(
            [.status(503), .status(503), .status(502), .ok("well again"), .ok()], clock: clock)
        let pipeline = Pipeline(transport: transport) { breaker }
        _ = await call(pipeline)
        _ = await call(pipeline)
        clock.advance(by: .seconds(30))
        #expect(try await call(pipeline).get().status == 502, "the probe went, and failed")
        #expect(breaker.state(for: HTTPRequest(url: url())) == .open)
        clock.advance(by: .seconds(30))
        #expect(try await call(pipeline).get().status == 200)
        #expect(breaker.state(for: HTTPRequest(url: url())) == .closed)
        #expect(try await call(pipeline).get().status == 200)
        #expect(
            log.transitions == [
                "closed->open", "open->half-open", "half-open->open", "open->half-open", "half-open->closed",
            ]
        )
        #expect(log.all.allSatisfy { $0.key == "https://api.example.invalid:443" })
        #expect(log.all.first?.description == "circuit https://api.example.invalid:443: closed -> open")
    }

    @Test func aProbeThatHangsIsGivenUpOnAfterABreakAndAnotherProbes() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 1), clock: clock)
        let transport = ScriptedTransport([.status(500), .ok().delayed(by: .seconds(3_600)), .ok()], clock: clock)
        let pipeline = Pipeline(transport: transport) { breaker }
        _ = await call(pipeline)
        clock.advance(by: .seconds(30))
        let hung = Task { await call(pipeline) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        #expect(await call(pipeline).rejection?.retryAfter == .seconds(20), "the hung probe has 20 s left")
        clock.advance(by: .seconds(20))
        #expect(try await call(pipeline).get().status == 200, "a new probe went and closed the circuit")
        #expect(breaker.state(for: HTTPRequest(url: url())) == .closed)
        hung.cancel()
        _ = await hung.value
    }

    @Test func aCancelledProbeLeavesTheCircuitHalfOpenForTheNextProbe() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 1), clock: clock)
        let transport = ScriptedTransport([.status(500), .ok().delayed(by: .seconds(60)), .status(500)], clock: clock)
        let pipeline = Pipeline(transport: transport) { breaker }
        _ = await call(pipeline)
        clock.advance(by: .seconds(30))
        let probe = Task { await call(pipeline) }
        await clock.waitForSleepers(1)
        probe.cancel()
        _ = await probe.value
        #expect(breaker.state(for: HTTPRequest(url: url())) == .halfOpen, "the cancellation was not judged")
        #expect(try await call(pipeline).get().status == 500, "the next call went as a probe")
        #expect(breaker.state(for: HTTPRequest(url: url())) == .open)
    }

    @Test func anErrorThatIsNotAFailureNeitherClosesAHalfOpenCircuitNorDilutesTheRatio() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 1), clock: clock)
        let transport = ScriptedTransport(
            [.status(500), .failure(URLError(.secureConnectionFailed)), .status(503)], clock: clock)
        let pipeline = Pipeline(transport: transport) { breaker }
        _ = await call(pipeline)
        clock.advance(by: .seconds(30))
        _ = await call(pipeline)
        #expect(breaker.state(for: HTTPRequest(url: url())) == .halfOpen, "a TLS error says nothing of the service")
        _ = await call(pipeline)
        #expect(breaker.state(for: HTTPRequest(url: url())) == .open)
    }

    @Test func anExactFailureRatioOpensTheCircuit() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 100, ratio: 0.55), clock: clock)
        let replies = (0..<100).map { $0 < 45 ? ScriptedTransport.Reply.ok() : .status(503) }
        let pipeline = Pipeline(transport: ScriptedTransport(replies, clock: clock)) { breaker }
        for _ in 0..<100 { _ = await call(pipeline) }
        #expect(breaker.state(for: HTTPRequest(url: url())) == .open, "55 of 100 is 0.55")
    }

    @Test func halfOpenLetsItsProbesThroughAndTurnsTheOthersAwayAsIfOpen() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 1, probes: 2), clock: clock)
        let transport = ScriptedTransport(
            [.status(500), .ok().delayed(by: .seconds(1)), .ok().delayed(by: .seconds(1))], clock: clock)
        let pipeline = Pipeline(transport: transport) { breaker }
        _ = await call(pipeline)
        clock.advance(by: .seconds(30))
        let probes = (0..<2).map { _ in Task { await call(pipeline) } }
        await clock.waitForSleepers(2)
        let turnedAway = await call(pipeline).rejection
        #expect(
            turnedAway
                == CircuitOpenError(key: "https://api.example.invalid:443", state: .halfOpen, retryAfter: .seconds(30)),
            "the probes are given up on a break after they went")
        clock.advance(by: .seconds(1))
        for probe in probes { #expect(try await probe.value.get().status == 200) }
        #expect(transport.requests.count == 3)
        #expect(breaker.state(for: HTTPRequest(url: url())) == .closed)
    }

    @Test func eachOriginHasItsOwnCircuitAndAContextKeyGroupsCalls() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 2), clock: clock)
        let transport = ScriptedTransport(clock: clock) { request in
            request.url.host() == "down.example.invalid" ? .status(503) : .ok()
        }
        let pipeline = Pipeline(transport: transport) { breaker }
        let down = HTTPRequest(url: url(host: "down.example.invalid"))
        let up = HTTPRequest(url: url(host: "up.example.invalid"))
        for _ in 0..<2 { _ = await call(pipeline, down) }
        #expect(await call(pipeline, down).rejection != nil)
        #expect(try await call(pipeline, up).get().status == 200, "another origin is not affected")
        var grouped = HTTPRequest(url: url("search", host: "up.example.invalid"))
        grouped.context.circuitBreakerKey = "search"
        var alsoGrouped = HTTPRequest(url: url("other", host: "down.example.invalid"))
        alsoGrouped.context.circuitBreakerKey = "search"
        _ = await call(pipeline, alsoGrouped)
        _ = await call(pipeline, alsoGrouped)
        let rejection = await call(pipeline, grouped).rejection
        #expect(rejection?.key == "search", "one key, one circuit, whatever the URL")
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422, 429])
    func clientErrorsDoNotCountAsFailures(status: Int) async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 2, ratio: 0.01), clock: clock)
        let transport = ScriptedTransport(clock: clock) { _ in .status(status) }
        let pipeline = Pipeline(transport: transport) { breaker }
        for _ in 0..<10 { _ = await call(pipeline) }
        #expect(breaker.state(for: HTTPRequest(url: url())) == .closed)
        #expect(transport.requests.count == 10)
    }

    @Test func theCallersCancellationIsNotJudged() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(policy: Self.policy(minimum: 1, ratio: 0.01), clock: clock)
        let transport = ScriptedTransport(clock: clock) { _ in .ok().delayed(by: .seconds(60)) }
        let pipeline = Pipeline(transport: transport) { breaker }
        let cancelled = Task { await call(pipeline) }
        await clock.waitForSleepers(1)
        cancelled.cancel()
        let outcome = await cancelled.value
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(breaker.state(for: HTTPRequest(url: url())) == .closed)
    }

    @Test func timeoutsAndTransientTransportErrorsCountButOtherErrorsDoNot() {
        let failure = CircuitBreakerPolicy.defaultFailure
        #expect(failure(.failure(HTTPTimeoutError(.attempt, after: .seconds(1)))))
        #expect(failure(.failure(URLError(.timedOut))))
        #expect(failure(.failure(URLError(.networkConnectionLost))))
        #expect(!failure(.failure(URLError(.badURL))))
        #expect(!failure(.failure(HTTPTransportError.invalidRequest(reason: "no host"))))
        #expect(!failure(.failure(CancellationError())))
        #expect(failure(.response(HTTPResponseHead(status: 500))))
        #expect(!failure(.response(HTTPResponseHead(status: 499))))
    }

    @Test func anotherTransportsErrorCountsWhenItSaysItIsTransient() {
        struct Transient: Error, HTTPTransientFailure {
            let isTransient: Bool
        }
        let failure = CircuitBreakerPolicy.defaultFailure
        #expect(failure(.failure(Transient(isTransient: true))))
        #expect(!failure(.failure(Transient(isTransient: false))))
    }

    @Test func keepsTheMiddlewareContract() async {
        let report = await MiddlewareContract().check { CircuitBreakerMiddleware(clock: ManualClock()) }
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func circuitsOfOriginsNotCalledWithinTheSamplingDurationAreDroppedSoManyOriginsDoNotGrowMemory()
        async throws
    {
        let clock = ManualClock()
        let breaker = CircuitBreakerMiddleware(
            policy: CircuitBreakerPolicy(minimumThroughput: 2, samplingDuration: .seconds(10)), clock: clock)
        let transport = ScriptedTransport(clock: clock) { request in
            request.url.host == "failing.example.invalid" ? .status(503) : .ok()
        }
        let pipeline = Pipeline(transport: transport) { breaker }
        // One origin opens its circuit; then 3,000 other origins are each called once, a second apart.
        for _ in 0..<2 { _ = await call(pipeline, HTTPRequest(url: url(host: "failing.example.invalid"))) }
        #expect(breaker.state(for: HTTPRequest(url: url(host: "failing.example.invalid"))) == .open)
        for index in 0..<3_000 {
            clock.advance(by: .seconds(1))
            _ = try await pipeline.send(HTTPRequest(url: url(host: "host\(index).example.invalid")))
        }
        #expect(transport.requests.count == 3_002)
        let held = breaker.circuitCount
        #expect(held <= 2 * 256, "held \(held) circuits")
        // What was dropped was idle: the open circuit is kept, and recent origins still count.
        let failing = breaker.state(for: HTTPRequest(url: url(host: "failing.example.invalid")))
        #expect(failing != CircuitState.closed)
    }
}

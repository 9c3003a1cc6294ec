import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineCircuitBreaker
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import Testing

/// The pairs with the circuit breaker (**B**): B–R, B–A, B–T. The breaker is the first of each
/// pair: `firstOutside` lists `CircuitBreakerMiddleware` first.
@Suite("Pair matrix: the circuit breaker with retry, auth and timeouts")
struct PairMatrixCircuitBreakerTests {
    /// A breaker that opens on the first failure judged.
    static func touchy(_ clock: ManualClock, minimum: Int = 1) -> CircuitBreakerMiddleware {
        CircuitBreakerMiddleware(
            policy: CircuitBreakerPolicy(failureRatio: 0.01, minimumThroughput: minimum), clock: clock)
    }

    // MARK: B–R

    @Test(
        "A breaker inside retry judges every attempt and opens after one failing call; outside retry it judges one outcome per call"
    )
    func aBreakerInsideRetryJudgesEveryAttemptOutsideItJudgesOnePerCall() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let breaker = Self.touchy(clock, minimum: 3)
            let transport = ScriptedTransport(clock: clock) { _ in .status(503) }
            let setup = PairSetup("B–R", breaker, zeroDelayRetry(), transport: transport)
            let observed = await setup.observe(order)
            #expect(observed.outcome.status == 503 && observed.sent.count == 3, "\(setup.label(order))")
            let state = breaker.state(for: HTTPRequest(url: orderingURL))
            let again = await setup.observe(order)
            switch order {
            case .firstOutside:
                #expect(state == .closed, "one outcome judged, below the minimum of 3")
                #expect(again.sent.count == 6, "the next call is sent again, three attempts")
            case .secondOutside:
                #expect(state == .open, "three attempts judged")
                #expect(again.sent.count == 3, "the next call sends nothing")
                #expect(again.outcome.description.contains("CircuitOpenError"), "and is not retried")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent == seen[.secondOutside]?.sent, "the first call's wire is the same")
    }

    // MARK: B–A

    @Test("A 401 is not the breaker's failure, recovered by auth or not, in either order")
    func aBreakerAndAuthCommuteBecauseA401IsNotAFailure() async throws {
        var seen: [PairOrder: [PairObservation]] = [:]
        var states: [PairOrder: CircuitState] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let breaker = Self.touchy(clock)
            let source = MatrixCredentials()
            let transport = ScriptedTransport(clock: clock) { request in
                switch (request.url.lastPathComponent, request.fields["Authorization"]) {
                case ("1", "Bearer token-1"): .ok("recovered")
                default: .status(401)
                }
            }
            let setup = PairSetup("B–A", breaker, matrixAuth(source), transport: transport)
            let recovered = await setup.observe(order)
            let unrecovered = await setup.observe(
                order, HTTPRequest(url: URL(string: "https://api.example.invalid/never") ?? orderingURL))
            seen[order] = [recovered, unrecovered]
            states[order] = breaker.state(for: HTTPRequest(url: orderingURL))
        }
        #expect(seen[.firstOutside] == seen[.secondOutside], "same outcomes and wire")
        #expect(seen[.firstOutside]?.first?.outcome.status == 200)
        #expect(states[.firstOutside] == .closed && states[.secondOutside] == .closed)
    }

    // MARK: B–T

    @Test(
        "A breaker outside the per-attempt timeout judges a cut attempt a failure; inside it sees only a cancellation")
    func aBreakerOutsideThePerAttemptTimeoutJudgesACutAttemptInsideItDoesNot() async throws {
        var states: [PairOrder: CircuitState] = [:]
        for order in PairOrder.allCases {
            let clock = ManualClock()
            let breaker = Self.touchy(clock)
            let transport = ScriptedTransport(clock: clock) { _ in .ok("slow").delayed(by: .seconds(5)) }
            let setup = PairSetup(
                "B–T", breaker, TimeoutMiddleware.perAttempt(.seconds(2), clock: clock), transport: transport)
            let observed = try #require(try? await clock.run { await setup.observe(order) }.get())
            #expect(observed.outcome.description.contains("HTTPTimeoutError"), "\(setup.label(order))")
            states[order] = breaker.state(for: HTTPRequest(url: orderingURL))
        }
        #expect(states[.firstOutside] == .open, "the timeout error is judged a failure")
        #expect(states[.secondOutside] == .closed, "a hanging service never opens the circuit")
    }
}

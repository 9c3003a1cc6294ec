import Foundation
import HTTPPipelineLogging
import HTTPPipelineTesting
import Testing

/// The standard pipeline over `URLSessionTransport` against a real httpbin
/// (`bash Scripts/interop-server.sh start`, then `HTTPBIN_URL=… swift test --filter
/// HTTPPipelineInteropTests`). Without `HTTPBIN_URL` the suite is reported as skipped.
@Suite(.enabled(if: HTTPBin.setting != nil, "HTTPBIN_URL not set: start Scripts/interop-server.sh"))
struct HTTPBinInteropTests {
    /// Runs one scenario with a sink of its own, and checks that no secret reached it.
    func run(_ scenario: Scenario) async throws {
        let sink = InMemoryLogSink()
        try await InteropCassettes.run(scenario.rawValue) {
            try await scenario.run(on: try HTTPBin.configured(), into: sink)
        }
        #expect(Secrets.leaked(in: sink).isEmpty, "\(scenario) logged a secret:\n\(sink.text)")
    }

    @Test func defaultHeadersReachTheServer() async throws {
        try await run(.defaultHeaders)
    }

    @Test func aRejectedTokenIsRefreshedOnceForConcurrentCallersAndTheReplaysSucceed() async throws {
        try await run(.bearerRefresh)
    }

    @Test func a503IsRetriedUntilAttemptsRunOutAndThenReturned() async throws {
        try await run(.retry503)
    }

    @Test func a429IsRetriedUntilAttemptsRunOutAndThenReturned() async throws {
        try await run(.retry429)
    }

    @Test func gzipAndDeflateBodiesAreDecodedExactlyOnce() async throws {
        try await run(.gzipDeflate)
    }

    @Test func aBrotliBodyPassesThroughTheGzipPluginWithoutError() async throws {
        try await run(.brotli)
    }

    @Test func aPasswordInAJSONBodyIsRedactedInTheBodyLevelLog() async throws {
        try await run(.passwordBody)
    }

    @Test func setCookieIsRedactedInTheLogAndTheEchoedCookieToo() async throws {
        try await run(.setCookie)
    }

    @Test func aRedirectChainEndsAt200OnGet() async throws {
        try await run(.redirectChain)
    }

    @Test func aRedirectToAnotherOriginCarriesNoCredentialOrCookieAndOneWithinTheOriginKeepsBoth() async throws {
        try await run(.redirectToAnotherOrigin)
    }

    @Test func redirectMiddlewareFollowsRedirect3HopByHop() async throws {
        try await run(.redirectHops)
    }

    @Test func redirectMiddlewareFollowsAbsoluteRedirect3HopByHop() async throws {
        try await run(.absoluteRedirectHops)
    }

    @Test func redirectMiddlewareFollowsRelativeRedirect3HopByHop() async throws {
        try await run(.relativeRedirectHops)
    }

    @Test func aBinaryBodyIsSummarisedInTheLogNotDumped() async throws {
        try await run(.binaryBody)
    }

    @Test func aSlowRequestCancelledByTheCallerEndsPromptlyWithCancellationError() async throws {
        try await run(.cancellation)
    }

    @Test func aOneSecondDeadlineUnderDefaultRetryEndsACallToASilentServerWithin1Point1Seconds() async throws {
        try await run(.deadlineOnASilentServer)
    }

    @Test func aOneSecondDeadlineCutsHTTPBinsDelay3Within1Point1Seconds() async throws {
        try await run(.deadlineOnDelay)
    }

    /// Every scenario at once into one sink: the run's combined log holds none of its secrets.
    /// (Self-contained, so it holds whatever order or parallelism the other tests run in.)
    @Test func theWholeRunsCombinedLogHoldsNoneOfItsSecrets() async throws {
        let server = try HTTPBin.configured()
        let sink = InMemoryLogSink()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for scenario in Scenario.allCases {
                group.addTask {
                    // Replayed from the scenario's own cassette; recorded only by its own test.
                    try await InteropCassettes.run(scenario.rawValue, records: false) {
                        try await scenario.run(on: server, into: sink)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(sink.records.count >= Scenario.allCases.count)
        let leaked = Secrets.leaked(in: sink)
        #expect(leaked.isEmpty, "the run logged \(leaked)")
    }
}

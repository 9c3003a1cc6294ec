import Foundation
import HTTPPipelineLogging
import HTTPPipelineTesting
import Testing

/// The standard pipeline over each transport (`URLSessionTransport`, `CurlTransport`) against a real httpbin
/// (`bash Scripts/interop-server.sh start`, then `HTTPBIN_URL=… swift test --filter
/// HTTPPipelineInteropTests`). Without `HTTPBIN_URL` the suite is reported as skipped.
@Suite(.enabled(if: HTTPBin.setting != nil, "HTTPBIN_URL not set: start Scripts/interop-server.sh"))
struct HTTPBinInteropTests {
    /// Runs one scenario over `kind` with a sink of its own, and checks that no secret reached it.
    func run(_ scenario: Scenario, over kind: TransportKind) async throws {
        let sink = InMemoryLogSink()
        try await InteropCassettes.run("\(scenario.rawValue)-\(kind.rawValue)") {
            try await scenario.run(on: try HTTPBin.configured(), into: sink, over: kind)
        }
        #expect(Secrets.leaked(in: sink).isEmpty, "\(scenario) over \(kind) logged a secret:\n\(sink.text)")
    }

    @Test(arguments: TransportKind.allCases)
    func defaultHeadersReachTheServer(over kind: TransportKind) async throws {
        try await run(.defaultHeaders, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func aRejectedTokenIsRefreshedOnceForConcurrentCallersAndTheReplaysSucceed(over kind: TransportKind) async throws {
        try await run(.bearerRefresh, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func a503IsRetriedUntilAttemptsRunOutAndThenReturned(over kind: TransportKind) async throws {
        try await run(.retry503, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func a429IsRetriedUntilAttemptsRunOutAndThenReturned(over kind: TransportKind) async throws {
        try await run(.retry429, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func gzipAndDeflateBodiesAreDecodedExactlyOnce(over kind: TransportKind) async throws {
        try await run(.gzipDeflate, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func aBrotliBodyPassesThroughTheGzipPluginWithoutError(over kind: TransportKind) async throws {
        try await run(.brotli, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func aPasswordInAJSONBodyIsRedactedInTheBodyLevelLog(over kind: TransportKind) async throws {
        try await run(.passwordBody, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func setCookieIsRedactedInTheLogAndTheEchoedCookieToo(over kind: TransportKind) async throws {
        try await run(.setCookie, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func aRedirectChainEndsAt200OnGet(over kind: TransportKind) async throws {
        try await run(.redirectChain, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func aRedirectToAnotherOriginCarriesNoCredentialOrCookieAndOneWithinTheOriginKeepsBoth(over kind: TransportKind)
        async throws
    {
        try await run(.redirectToAnotherOrigin, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func redirectMiddlewareFollowsRedirect3HopByHop(over kind: TransportKind) async throws {
        try await run(.redirectHops, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func redirectMiddlewareFollowsAbsoluteRedirect3HopByHop(over kind: TransportKind) async throws {
        try await run(.absoluteRedirectHops, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func redirectMiddlewareFollowsRelativeRedirect3HopByHop(over kind: TransportKind) async throws {
        try await run(.relativeRedirectHops, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func aBinaryBodyIsSummarisedInTheLogNotDumped(over kind: TransportKind) async throws {
        try await run(.binaryBody, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func aSlowRequestCancelledByTheCallerEndsPromptlyWithCancellationError(over kind: TransportKind) async throws {
        try await run(.cancellation, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func aOneSecondDeadlineUnderDefaultRetryEndsACallToASilentServerWithin1Point1Seconds(over kind: TransportKind)
        async throws
    {
        try await run(.deadlineOnASilentServer, over: kind)
    }

    @Test(arguments: TransportKind.allCases)
    func aOneSecondDeadlineCutsHTTPBinsDelay3Within1Point1Seconds(over kind: TransportKind) async throws {
        try await run(.deadlineOnDelay, over: kind)
    }

    /// Every scenario at once into one sink: the run's combined log holds none of its secrets.
    /// (Self-contained, so it holds whatever order or parallelism the other tests run in.)
    @Test(arguments: TransportKind.allCases)
    func theWholeRunsCombinedLogHoldsNoneOfItsSecrets(over kind: TransportKind) async throws {
        let server = try HTTPBin.configured()
        let sink = InMemoryLogSink()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for scenario in Scenario.allCases {
                group.addTask {
                    // Replayed from the scenario's own cassette; recorded only by its own test.
                    try await InteropCassettes.run("\(scenario.rawValue)-\(kind.rawValue)", records: false) {
                        try await scenario.run(on: server, into: sink, over: kind)
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

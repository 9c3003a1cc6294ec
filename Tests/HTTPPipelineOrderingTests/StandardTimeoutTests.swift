import Foundation
import HTTPPipeline
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineTimeout
import Testing

/// The standard stack's two timeouts: off by default; when set, the deadline just inside the
/// outermost point and the per-attempt timeout just inside retry, in both build branches (inlined,
/// and with layers inserted).
@Suite struct StandardTimeoutTests {
    struct Mark: HTTPMiddleware {
        let label: String
        var name: String { label }
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await next(request)
        }
    }

    static func options(_ clock: ManualClock, inserting: Bool) -> StandardOptions {
        var options = StandardOptions(
            headers: [.fixed("User-Agent", "x")], totalTimeout: .seconds(10), attemptTimeout: .seconds(2),
            logging: .init(sink: InMemoryLogSink()), clock: clock)
        if inserting {
            options.insert(Mark(label: "Outermost"), at: .outermost)
            options.insert(Mark(label: "InsideRetry"), at: .insideRetry)
        }
        return options
    }

    @Test func bothTimeoutsAreOffByDefault() throws {
        let pipeline = try StandardPipeline.build(over: ScriptedTransport([]))
        #expect(!pipeline.layerNames.contains { $0.hasPrefix("TimeoutMiddleware") })
    }

    @Test(arguments: [false, true])
    func theDeadlineSitsJustInsideOutermostAndThePerAttemptTimeoutJustInsideRetry(inserting: Bool) throws {
        let pipeline = try StandardPipeline.build(
            over: ScriptedTransport([]), options: Self.options(ManualClock(), inserting: inserting))
        let expected =
            inserting
            ? [
                "Outermost", "TimeoutMiddleware.deadline", "DefaultHeaders", "ConcurrencyLimitMiddleware",
                "RedirectMiddleware", "RetryMiddleware", "TimeoutMiddleware.perAttempt", "InsideRetry",
                "LoggingMiddleware", "GzipMiddleware",
            ]
            : [
                "TimeoutMiddleware.deadline", "DefaultHeaders", "ConcurrencyLimitMiddleware", "RedirectMiddleware",
                "RetryMiddleware", "TimeoutMiddleware.perAttempt", "LoggingMiddleware", "GzipMiddleware",
            ]
        #expect(pipeline.layerNames == expected)
        #expect(pipeline.orderingDiagnostics.isEmpty)
    }

    @Test(
        "In the standard stack a slow attempt is cut and retried, and the deadline ends the call when attempts keep failing",
        arguments: [false, true])
    func slowAttemptsAreRetriedUntilTheDeadline(inserting: Bool) async throws {
        let clock = ManualClock()
        let slowThenFast = ScriptedTransport([.ok("slow").delayed(by: .seconds(5)), .ok("{}")], clock: clock)
        let recovering = try StandardPipeline.build(
            over: slowThenFast, options: Self.options(clock, inserting: inserting))
        let recovered = await clock.run { try await recovering.send(HTTPRequest(url: orderingURL)) }
        #expect(try recovered.get().status == 200)
        #expect(slowThenFast.requests.count == 2)

        let alwaysSlow = ScriptedTransport(clock: clock) { _ in ScriptedTransport.Reply.ok().delayed(by: .seconds(30)) }
        var options = Self.options(clock, inserting: inserting)
        options.totalTimeout = .seconds(3)
        let stalled = try StandardPipeline.build(over: alwaysSlow, options: options)
        let cut = await clock.run { try await stalled.send(HTTPRequest(url: orderingURL)) }
        #expect(throws: HTTPTimeoutError(.total, after: .seconds(3))) { try cut.get() }
        #expect(alwaysSlow.requests.count == 2, "cut at 2 s, retried after at most 0.5 s, cut by the deadline at 3 s")
    }
}

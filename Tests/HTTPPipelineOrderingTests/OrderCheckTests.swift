import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

/// The order-checking helpers users call from their own tests.
@Suite struct OrderCheckTests {
    @Test func layerOrderCheckPassesOrShowsBothOrdersSideBySide() {
        let log = OrderLog()
        let pipeline = Pipeline(transport: ScriptedTransport([])) {
            OrderProbe("headers", log: log)
            OrderProbe("auth", log: log)
            OrderProbe("retry", log: log)
        }
        #expect(pipeline.checkLayerOrder(["headers", "auth", "retry"]) == nil)
        let mismatch = pipeline.checkLayerOrder(["headers", "retry", "auth"])
        #expect(
            mismatch?.description == """
                layer order differs:
                   #   expected  actual
                   1   headers   headers
                ≠  2   retry     auth
                ≠  3   auth      retry
                """)
    }

    @Test func visitCountsPerAttemptAreCheckedWithAReadableMismatch() async throws {
        struct TwoAttempts: HTTPMiddleware {
            func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
                var attempt = request
                attempt.context.attempt = 1
                _ = try await next(attempt)
                attempt.context.attempt = 2
                return try await next(attempt)
            }
        }
        let log = OrderLog()
        let pipeline = Pipeline(transport: ScriptedTransport(respond: { _ in .ok() })) {
            OrderProbe("outside", log: log)
            TwoAttempts()
            OrderProbe("inside", log: log)
        }
        _ = try await pipeline.send(HTTPRequest(url: orderingURL))
        #expect(log.checkVisits("inside", path: "/books/1", perAttempt: [1: 1, 2: 1]) == nil)
        #expect(log.checkVisits("outside", perAttempt: [0: 1]) == nil)
        let mismatch = log.checkVisits("inside", perAttempt: [1: 1])
        #expect(mismatch?.expected == ["attempt 1: 1 visit"])
        #expect(mismatch?.actual == ["attempt 1: 1 visit", "attempt 2: 1 visit"])
        #expect(log.checkOrder(.request, ["outside", "inside", "inside"]) == nil)
        #expect(log.checkOrder(.response, ["outside"])?.description.contains("≠") == true)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@Suite struct OrderLogTests {
    let request = HTTPRequest(url: URL(string: "http://example.invalid/items") ?? URL(fileURLWithPath: "/"))

    @Test func logAnswersWhoSawWhatFirst() async throws {
        let log = OrderLog()
        let pipeline = Pipeline(transport: ScriptedTransport([.status(201)])) {
            OrderProbe("A", log: log)
            OrderProbe("B", log: log)
        }
        _ = try await pipeline.send(request)
        #expect(log.saw("A", before: "B", .request))
        #expect(log.saw("B", before: "A", .response))
        #expect(!log.saw("B", before: "A", .request))
        #expect(!log.saw("A", before: "missing"))
        #expect(log.count("A") == 1)
        #expect(log.events.last?.status == 201)
        #expect(log.events.first?.method == "GET")
        #expect(log.events.first?.path == "/items")
    }

    @Test func probeRecordsTheAttemptNumberARetryingLayerSets() async throws {
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
        let pipeline = Pipeline(transport: ScriptedTransport([.status(503), .status(200)])) {
            OrderProbe("outside", log: log)
            TwoAttempts()
            OrderProbe("inside", log: log)
        }
        _ = try await pipeline.send(request)
        let inside = log.events.filter { $0.layer == "inside" && $0.phase == .request }
        #expect(inside.map(\.attempt) == [1, 2])
        #expect(inside.map(\.visit) == [1, 2])
        #expect(log.events.first { $0.layer == "outside" }?.attempt == nil)
        #expect(log.count("inside", .response) == 2)
    }

    @Test func probeRecordsErrorsAndRethrowsThemUnchanged() async {
        let log = OrderLog()
        let pipeline = Pipeline(transport: ScriptedTransport([.failure(URLError(.timedOut))])) {
            OrderProbe("A", log: log)
        }
        await #expect(throws: URLError(.timedOut)) { try await pipeline.send(request) }
        #expect(log.layers(.error) == ["A"])
    }

    @Test func resetForgetsEveryEvent() async throws {
        let log = OrderLog()
        let pipeline = Pipeline(transport: ScriptedTransport([.ok()])) { OrderProbe("A", log: log) }
        _ = try await pipeline.send(request)
        log.reset()
        #expect(log.events.isEmpty)
        #expect(log.description.isEmpty)
    }
}

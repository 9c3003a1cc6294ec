import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineEvents
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// Over a real server, each attempt's end carries its transport's final metrics, buffered or
/// streamed, and the call's end its whole duration.
@Suite struct AttemptMetricsEventTests {
    enum Kind: String, CaseIterable, Sendable {
        case curl, urlSession
    }

    static func client(_ kind: Kind, events: EventLog) -> any HTTPTransport {
        switch kind {
        case .curl:
            Pipeline(transport: CurlTransport()) {
                ObserverMiddleware.call(events)
                RetryMiddleware(policy: .attempts(2, backoff: .immediate))
                ObserverMiddleware.attempt()
            }
        case .urlSession:
            Pipeline(transport: URLSessionTransport()) {
                ObserverMiddleware.call(events)
                RetryMiddleware(policy: .attempts(2, backoff: .immediate))
                ObserverMiddleware.attempt()
            }
        }
    }

    @Test(arguments: Kind.allCases, [1_000, 600_000])
    func aDelayedHeadShowsInTheAttemptsTimeToFirstByte(kind: Kind, bodySize: Int) async throws {
        let server = LoopbackServer()
        server.route("GET", "/slow", .init(body: Data(count: bodySize), delay: .milliseconds(150)))
        try server.start()
        defer { server.stop() }
        let events = EventLog()

        let response = try await Self.client(kind, events: events).send(
            HTTPRequest(url: server.baseURL.appendingPathComponent("slow")))
        #expect(try await response.body.collect(upTo: 1 << 20).count == bodySize)

        #expect(
            events.lines() == ["call.started", "attempt.started #1", "attempt.finished #1 200", "call.finished 200"])
        let finished = try #require(events.events.first { $0.kind == .attemptFinished })
        let metrics = try #require(finished.metrics)
        #expect(try #require(metrics.firstByte) >= .milliseconds(140))
        #expect(try #require(metrics.lastByte) >= metrics.firstByte ?? .zero)
        #expect((metrics.bodyBytesReceived ?? metrics.bodyBytesDecoded) == Int64(bodySize), "final when the body ended")
        let call = try #require(events.events.last)
        #expect(try #require(call.duration) >= .milliseconds(140))
        #expect(call.metrics == nil, "metrics are the attempts'")
    }
}

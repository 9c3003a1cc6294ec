import Foundation
import HTTPPipeline
import HTTPPipelineEvents
import HTTPPipelineHedging
import HTTPPipelineTesting
import HTTPPipelineTimeout
import TestSupport
import Testing

/// What an observer sees of a hedged call that its deadline ends, cut or raced.
@Suite struct HedgingDeadlineEventTests {
    static let url = URL(string: "https://api.example/a") ?? URL(fileURLWithPath: "/")

    /// A transport that keeps a cut deadline and never answers: it ends when the cut fires or
    /// its caller is cancelled, with `CancellationError`, as `CurlTransport` does.
    struct Hanging: HTTPTransport, KeepsDeadline {
        let sent = Locked(0)
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            sent.withLock { $0 += 1 }
            let gate = AsyncStream<Void>.makeStream()
            request.context.deadline?.cut?.onCut { gate.continuation.finish() }
            for await _ in gate.stream {}
            throw CancellationError()
        }
    }

    struct Stamp: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await next(request)
        }
    }

    @Test(arguments: [false, true])
    func aHedgedCallEndedByItsDeadlineReportsNoHedgeAsWon(raced: Bool) async throws {
        let clock = ManualClock()
        let log = EventLog()
        let transport = Hanging()
        let client = Pipeline(transport: transport) {
            ObserverMiddleware.call(log)
            TimeoutMiddleware.deadline(.seconds(10), clock: clock)
            if raced { Stamp() }
            HedgingMiddleware(policy: .after(.seconds(1)), budget: nil, clock: clock)
        }
        #expect(keepsDeadline(client) == !raced)
        let call = Task { try await client.send(HTTPRequest(url: Self.url)) }
        #expect(await eventually { clock.pendingTimers.count == 2 }, "the deadline and the hedge's timer")
        clock.advance(by: .seconds(1))
        #expect(await eventually { transport.sent.value == 2 }, "the hedge went out")
        #expect(await eventually { clock.pendingTimers.count == 1 }, "the deadline")
        clock.advance(by: .seconds(9))

        await #expect(throws: HTTPTimeoutError.self) { _ = try await call.value }
        let kinds = log.events.map(\.kind)
        #expect(kinds.contains(.hedgeSent))
        #expect(!kinds.contains(.hedgeWon), "no copy won a call that timed out (raced: \(raced)): \(log)")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineConcurrencyLimit
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite struct ConcurrencyLimitBodyTests {
    static func streamed() -> ScriptedTransport.Reply {
        .streamed(200, chunks: [Data("a".utf8), Data("b".utf8)])
    }

    @Test func aStreamedBodyHoldsTheSlotUntilItIsReadToItsEnd() async throws {
        let limiter = ConcurrencyLimitMiddleware(limit: 1)
        let transport = ScriptedTransport { _ in Self.streamed() }
        let pipeline = Pipeline(transport: transport) { limiter }
        let response = try await pipeline.send(HTTPRequest(url: url("stream")))
        #expect(limiter.inFlightCount == 1, "the head came back; the body is still to read")
        let second = Task { try await pipeline.send(HTTPRequest(url: url("second"))).status }
        await eventually(within: .seconds(5)) { limiter.queuedCount == 1 }
        #expect(transport.requests.count == 1, "the second call waits for the body")
        var iterator = response.body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("a".utf8))
        #expect(limiter.queuedCount == 1, "half a body still holds the slot")
        #expect(try await iterator.next() == Data("b".utf8))
        #expect(try await iterator.next() == nil)
        #expect(try await second.value == 200)
        // The second call's body was dropped unread: its slot is back too.
        await eventually(within: .seconds(5)) { limiter.inFlightCount == 0 }
        #expect(limiter.inFlightCount == 0)
    }

    @Test func aStreamedBodyDroppedUnreadGivesItsSlotBackOnce() async throws {
        let limiter = ConcurrencyLimitMiddleware(limit: 1)
        let pipeline = Pipeline(transport: ScriptedTransport { _ in Self.streamed() }) { limiter }
        do {
            let response = try await pipeline.send(HTTPRequest(url: url("dropped")))
            #expect(response.status == 200)
            #expect(limiter.inFlightCount == 1)
        }
        #expect(limiter.inFlightCount == 0)
        let body = try await pipeline.send(HTTPRequest(url: url("read"))).body
        #expect(try await body.collect(upTo: 10) == Data("ab".utf8))
        #expect(limiter.inFlightCount == 0, "reading to the end and then dropping gives one slot back, not two")
    }

    @Test func aStreamedBodyThatFailsGivesItsSlotBack() async throws {
        let limiter = ConcurrencyLimitMiddleware(limit: 1)
        let transport = ScriptedTransport { _ in
            .streamed(200, chunks: [Data("a".utf8)], then: .fail(URLError(.networkConnectionLost)))
        }
        let pipeline = Pipeline(transport: transport) { limiter }
        let response = try await pipeline.send(HTTPRequest(url: url("broken")))
        await #expect(throws: URLError.self) { try await response.body.collect(upTo: 100) }
        #expect(limiter.inFlightCount == 0)
        withExtendedLifetime(response) {}
    }
}

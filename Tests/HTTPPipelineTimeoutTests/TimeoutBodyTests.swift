import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineTimeout
import TestSupport
import Testing

/// The decision on bodies: a total deadline covers reading a streamed body; a per-attempt timeout
/// stops at the response head.
/// A transport that answers with what `respond` makes.
private struct ClosureTransport: HTTPTransport {
    let respond: @Sendable (HTTPRequest) async throws -> HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await respond(request)
    }
}

@Suite("TimeoutMiddleware: streamed response bodies")
struct TimeoutBodyTests {
    static let chunks = [Data("first ".utf8), Data("second".utf8)]

    @Test("A deadline still covers a streamed body whose head arrived in time: the late chunk fails")
    func aDeadlineCoversTheBody() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.streamed(chunks: Self.chunks, every: .seconds(5))], clock: clock)
        let pipeline = Pipeline(transport: transport) { TimeoutMiddleware.deadline(.seconds(3), clock: clock) }
        let response = try await pipeline.send(HTTPRequest(url: timeoutURL))
        #expect(response.status == 200, "the head came at once")
        let read = await clock.run { try await response.body.collect(upTo: 1 << 20) }
        #expect(read.timeout == HTTPTimeoutError(.total, after: .seconds(3)))
        #expect(clock.now.offset < .seconds(5), "cut at the deadline, before the chunk came")
        #expect(clock.pendingDeadlines.isEmpty, "the body's read was cancelled")
    }

    @Test("A replayable streamed body stays replayable under a deadline: it reads whole twice")
    func aReplayableBodyStaysReplayable() async throws {
        let clock = ManualClock()
        let body = HTTPBody(length: 12) {
            AsyncStream<Data> { continuation in
                for chunk in Self.chunks { continuation.yield(chunk) }
                continuation.finish()
            }
        }
        let transport = ClosureTransport { _ in HTTPResponse(status: 200, body: body) }
        let pipeline = Pipeline(transport: transport) { TimeoutMiddleware.deadline(.seconds(3), clock: clock) }
        let response = try await pipeline.send(HTTPRequest(url: timeoutURL))
        #expect(response.body.isReplayable)
        #expect(try await response.body.collect(upTo: 1 << 20) == Data("first second".utf8))
        #expect(try await response.body.collect(upTo: 1 << 20) == Data("first second".utf8))
    }

    @Test("A body that streams in before the deadline is read whole")
    func aBodyInTimeIsReadWhole() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.streamed(chunks: Self.chunks, every: .seconds(1))], clock: clock)
        let pipeline = Pipeline(transport: transport) { TimeoutMiddleware.deadline(.seconds(3), clock: clock) }
        let response = try await pipeline.send(HTTPRequest(url: timeoutURL))
        let read = await clock.run { try await response.body.collect(upTo: 1 << 20) }
        #expect(try read.get() == Data("first second".utf8))
    }

    @Test("A per-attempt timeout stops at the head: a body slower than it is still read")
    func aPerAttemptTimeoutDoesNotCoverTheBody() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.streamed(chunks: Self.chunks, every: .seconds(5))], clock: clock)
        let pipeline = Pipeline(transport: transport) { TimeoutMiddleware.perAttempt(.seconds(3), clock: clock) }
        let response = try await pipeline.send(HTTPRequest(url: timeoutURL))
        let read = await clock.run { try await response.body.collect(upTo: 1 << 20) }
        #expect(try read.get() == Data("first second".utf8))
    }
}

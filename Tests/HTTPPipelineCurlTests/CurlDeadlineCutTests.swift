import Foundation
import HTTPPipeline
import HTTPPipelineConcurrencyLimit
import HTTPPipelineCurl
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineTimeout
import TestSupport
import Testing

/// Over curl, a deadline with only built-in layers below is cut without a race, as exactly as
/// the race cut it: a late head, a slow body, a wait for a slot, each ending in the timeout at
/// the deadline, and the next call working.
@Suite struct CurlDeadlineCutTests {
    static func client(_ transport: CurlTransport, limit: ConcurrencyLimitMiddleware? = nil) -> some HTTPTransport {
        Pipeline(transport: transport) {
            TimeoutMiddleware.deadline(.milliseconds(400))
            limit
            RetryMiddleware(policy: .default)
        }
    }

    @Test func aLateHeadEndsInTheTimeoutAtTheDeadlineAndTheNextCallWorks() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/late", .init(body: Data("late".utf8), delay: .seconds(3_600)))
        server.route("GET", "/fast", .init(body: Data("fast".utf8)))
        let client = Self.client(CurlTransport())
        #expect(keepsDeadline(client), "every layer and the transport keep a cut deadline: no race")
        let start = ContinuousClock.now

        await #expect(throws: HTTPTimeoutError.self) { _ = try await client.send(HTTPRequest(url: server.url("late"))) }

        let elapsed = start.duration(to: .now)
        #expect(
            elapsed >= .milliseconds(400) && elapsed < .seconds(30), "\(elapsed), long before the hour the server waits"
        )
        #expect(await eventually { server.openConnections <= 1 }, "the late transfer was aborted")
        let next = try await client.send(HTTPRequest(url: server.url("fast")))
        #expect(try await next.body.collect(upTo: 100) == Data("fast".utf8))
    }

    @Test func aBodyStillComingAtTheDeadlineEndsInTheTimeout() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let chunks = (0..<200).map { _ in Data(count: 1_000) }
        server.route("GET", "/drip", .init(body: .chunked(chunks, every: .milliseconds(20))))
        let client = Self.client(CurlTransport())
        let response = try await client.send(HTTPRequest(url: server.url("drip")))

        await #expect(throws: HTTPTimeoutError.self) { _ = try await response.body.collect(upTo: 1 << 20) }
    }

    @Test func aCallWaitingForASlotAtItsDeadlineEndsInTheTimeoutAndGivesNothingBack() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/late", .init(body: Data("late".utf8), delay: .seconds(3_600)))
        let limit = ConcurrencyLimitMiddleware(limit: 1)
        let transport = CurlTransport()
        let holder = Task {
            try await Pipeline(transport: transport) { limit }.send(HTTPRequest(url: server.url("late")))
        }
        #expect(await eventually { limit.inFlightCount == 1 })
        let client = Self.client(transport, limit: limit)
        let start = ContinuousClock.now

        await #expect(throws: HTTPTimeoutError.self) { _ = try await client.send(HTTPRequest(url: server.url("late"))) }

        #expect(start.duration(to: .now) < .seconds(30), "long before the hour the first call holds its slot")
        #expect(limit.queuedCount == 0)
        holder.cancel()
        _ = try? await holder.value
        #expect(await eventually { limit.inFlightCount == 0 })
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineTimeout
import TestSupport
import Testing

/// A deadline with nothing below it but layers and a transport that keep a cut deadline cuts
/// the call without a race; anything else below keeps the race.
@Suite struct DeadlineCutTests {
    static let url = URL(string: "https://api.example/a") ?? URL(fileURLWithPath: "/")

    /// A transport that keeps a cut deadline: it answers at once, or waits for the cut.
    struct KeepingTransport: HTTPTransport, KeepsDeadline {
        let seen = Locked<[HTTPRequest]>([])
        let hangs: Bool

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            seen.withLock { $0.append(request) }
            guard hangs, let cut = request.context.deadline?.cut else { return HTTPResponse(status: 200) }
            let gate = AsyncStream<Void>.makeStream()
            cut.onCut { gate.continuation.finish() }
            for await _ in gate.stream {}
            throw CancellationError()
        }
    }

    /// A layer of the caller's own: it keeps no promise about deadlines.
    struct Stamp: HTTPMiddleware {
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await next(request)
        }
    }

    @Test func aDeadlineOverLayersThatKeepItHandsTheCutDownAndRacesNothing() async throws {
        let transport = KeepingTransport(hangs: false)
        let client = Pipeline(transport: transport) {
            TimeoutMiddleware.deadline(.seconds(30))
            TimeoutMiddleware.perAttempt(.seconds(5))
        }
        _ = try await client.send(HTTPRequest(url: Self.url))
        #expect(transport.seen.value.first?.context.deadline?.cut != nil)
    }

    @Test func aLayerOfYourOwnBelowTheDeadlineKeepsTheRace() async throws {
        let transport = KeepingTransport(hangs: false)
        let client = Pipeline(transport: transport) {
            TimeoutMiddleware.deadline(.seconds(30))
            Stamp()
        }
        _ = try await client.send(HTTPRequest(url: Self.url))
        #expect(transport.seen.value.first?.context.deadline != nil)
        #expect(transport.seen.value.first?.context.deadline?.cut == nil)
        let array = Pipeline(transport: transport, middleware: [TimeoutMiddleware.deadline(.seconds(30)), Stamp()])
        _ = try await array.send(HTTPRequest(url: Self.url))
        #expect(transport.seen.value.last?.context.deadline?.cut == nil, "the same in a run-time stack")
    }

    @Test func aTransportThatDoesNotKeepItKeepsTheRace() async throws {
        let transport = ScriptedTransport([.ok()])
        let client = Pipeline(transport: transport) { TimeoutMiddleware.deadline(.seconds(30)) }
        _ = try await client.send(HTTPRequest(url: Self.url))
        #expect(transport.requests.first?.context.deadline?.cut == nil)
    }

    @Test func aCutCallEndsAtItsDeadlineWithTheTimeoutAndTheNextCallWorks() async throws {
        let clock = ManualClock()
        let hanging = KeepingTransport(hangs: true)
        let client = Pipeline(transport: hanging) { TimeoutMiddleware.deadline(.seconds(2), clock: clock) }
        let call = Task { try await client.send(HTTPRequest(url: Self.url)) }
        #expect(await eventually { clock.pendingTimers.count == 1 })
        clock.advance(by: .seconds(2))
        await #expect(throws: HTTPTimeoutError.self) { _ = try await call.value }
        #expect(clock.pendingTimers.isEmpty)

        let answering = Pipeline(transport: KeepingTransport(hangs: false)) {
            TimeoutMiddleware.deadline(.seconds(2), clock: clock)
        }
        #expect(try await answering.send(HTTPRequest(url: Self.url)).status == 200)
        #expect(clock.pendingTimers.isEmpty, "the answer disarmed its cut")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

/// `next` is non-escaping and `@Sendable`: a layer may call it from child tasks of a task group,
/// through `withoutActuallyEscaping`, to race attempts or hedge a slow one.
@Suite struct NextFromChildTasksTests {
    /// Sends `attempts` copies of the request at once, each from a child task, marked with
    /// `X-Attempt`, and returns the first response to arrive; the others are cancelled.
    struct Race: HTTPMiddleware {
        struct NoAttempt: Error {}

        let attempts: Int

        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await withoutActuallyEscaping(next) { next in
                try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                    for attempt in 1...attempts {
                        var request = request
                        request.fields["X-Attempt"] = "\(attempt)"
                        group.addTask { try await next(request) }
                    }
                    guard let first = try await group.next() else { throw NoAttempt() }
                    group.cancelAll()
                    return first
                }
            }
        }
    }

    /// A pipeline with `Race` between two layers, built with the result builder or from an array.
    static func pipeline(
        attempts: Int, over transport: ScriptedTransport, log: OrderLog, builder: Bool
    ) -> any HTTPTransport {
        if builder {
            Pipeline(transport: transport) {
                OrderProbe("outer", log: log)
                Race(attempts: attempts)
                Trail(tag: "inner")
                OrderProbe("inner", log: log)
            }
        } else {
            Pipeline(
                transport: transport,
                middleware: [
                    OrderProbe("outer", log: log), Race(attempts: attempts), Trail(tag: "inner"),
                    OrderProbe("inner", log: log),
                ])
        }
    }

    @Test(
        "A layer calling next from a child task gets the response through the layers below it",
        arguments: [true, false])
    func nextCalledFromAChildTaskWorks(builder: Bool) async throws {
        let transport = ScriptedTransport { request in .ok("attempt \(request.fields["X-Attempt"] ?? "none")") }
        let log = OrderLog()
        let pipeline = Self.pipeline(attempts: 1, over: transport, log: log, builder: builder)

        let response = try await pipeline.send(request())

        #expect(response.status == 200)
        #expect(try await response.bytes().text == "attempt 1<inner")
        #expect(transport.requests.map { $0.fields["X-Trail"] } == ["inner"])
        #expect(log.description == "outer> inner> inner< outer<")
    }

    @Test("A race of two attempts from child tasks returns the first to answer", arguments: [true, false])
    func raceOfTwoAttemptsReturnsTheFirst(builder: Bool) async throws {
        // The slow attempt sleeps on a manual clock that never moves: the race can return only
        // by not waiting for it.
        let clock = ManualClock()
        let transport = ScriptedTransport(clock: clock) { request in
            request.fields["X-Attempt"] == "1" ? .ok("slow").delayed(by: .seconds(60)) : .ok("fast")
        }
        let log = OrderLog()
        let pipeline = Self.pipeline(attempts: 2, over: transport, log: log, builder: builder)

        let response = try await pipeline.send(request())

        #expect(try await response.bytes().text == "fast<inner")
        #expect(clock.now == ManualClock.Instant(offset: .zero), "the slow attempt was not waited for")
        #expect(Set(transport.requests.compactMap { $0.fields["X-Attempt"] }) == ["1", "2"])
        #expect(log.count("inner", .request) == 2, "both attempts went through the layers below")
        #expect(log.count("inner", .response) == 1)
        #expect(log.count("inner", .error) == 1, "the slow attempt was cancelled")
        #expect(log.count("outer", .response) == 1)
    }

    @Test("An error from the only attempt in a child task reaches the caller unchanged", arguments: [true, false])
    func errorFromAChildTaskReachesTheCaller(builder: Bool) async throws {
        let transport = ScriptedTransport([.failure(URLError(.timedOut))])
        let log = OrderLog()
        let pipeline = Self.pipeline(attempts: 1, over: transport, log: log, builder: builder)

        await #expect(throws: URLError(.timedOut)) { try await pipeline.send(request()) }
        #expect(log.description == "outer> inner> inner! outer!")
    }
}

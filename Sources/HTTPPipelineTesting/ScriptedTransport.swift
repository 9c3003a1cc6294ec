import Foundation
public import HTTPPipeline

/// A transport that answers from a script and records every request it was sent.
///
/// Script it by sequence (replies handed out in order), by route (method and path), or by a
/// closure; any reply may be a thrown error and may come after a delay. Use it to test a
/// middleware or a whole pipeline without a network:
///
/// ```swift
/// import Testing
///
/// let transport = ScriptedTransport([.status(503), .status(200, body: Data("ok".utf8))])
/// let pipeline = Pipeline(transport: transport) { MyRetry() }
/// _ = try await pipeline.send(request)
/// #expect(transport.requests.count == 2)
/// ```
///
/// Delays sleep on the clock you pass (a ``ManualClock`` makes them instant and controllable)
/// and end early with `CancellationError` when the calling task is cancelled.
public final class ScriptedTransport: HTTPTransport {
    /// How the transport picks a reply.
    enum Script: Sendable {
        case sequence([Reply])
        case routes([Route: Reply], fallback: Reply)
        case closure(@Sendable (HTTPRequest) async throws -> Reply)
    }

    private struct State {
        var requests: [HTTPRequest] = []
        var nextInSequence = 0
    }

    private let script: Script
    private let clock: any Clock<Duration>
    private let state = Locked(State())

    /// Creates a transport that hands out `replies` in order, one per request.
    ///
    /// A request after the last reply fails with ``ScriptedTransportError/scriptExhausted(requestNumber:)``.
    /// - Parameters:
    ///   - replies: The replies, first request first.
    ///   - clock: The clock delays sleep on.
    public init(_ replies: [Reply], clock: any Clock<Duration> = ContinuousClock()) {
        self.script = .sequence(replies)
        self.clock = clock
    }

    /// Creates a transport that answers by method and path; other requests get `fallback`.
    ///
    /// - Parameters:
    ///   - routes: The reply for each route, for example `["GET /books/1": .status(200)]`.
    ///   - fallback: The reply for a request no route matches; 404 by default.
    ///   - clock: The clock delays sleep on.
    public init(
        routes: [Route: Reply],
        fallback: Reply = .status(404),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.script = .routes(routes, fallback: fallback)
        self.clock = clock
    }

    /// Creates a transport that asks a closure for each reply.
    ///
    /// - Parameters:
    ///   - clock: The clock delays sleep on.
    ///   - respond: Called with each request; what it returns is sent back, what it throws is thrown.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        respond: @escaping @Sendable (HTTPRequest) async throws -> Reply
    ) {
        self.script = .closure(respond)
        self.clock = clock
    }

    /// Every request sent so far, in the order they arrived.
    public var requests: [HTTPRequest] {
        state.withLock { $0.requests }
    }

    /// Answers a request from the script and records it.
    ///
    /// Like a real transport, it reads the request's body first: a single-pass stream is used up,
    /// and one already read fails here with `HTTPBodyError.alreadyConsumed`. The request is
    /// recorded with the bytes it carried, buffered, so a test can compare them.
    ///
    /// - Parameter request: The request, recorded as it arrived.
    /// - Returns: The scripted response.
    /// - Throws: The scripted error, `CancellationError` when cancelled during a delay, what
    ///   reading the body threw, or ``ScriptedTransportError`` when the script has no answer.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        if let body = request.body, body.bufferedData == nil {
            request.body = HTTPBody(try await body.collect(upTo: Int.max))
        }
        let reply = try await self.reply(to: request)
        if reply.delay > .zero {
            try await clock.sleep(for: reply.delay)
        }
        try Task.checkCancellation()
        return try reply.outcome(for: request, clock: clock)
    }

    private func reply(to request: HTTPRequest) async throws -> Reply {
        let sequenceIndex = state.withLock { state -> Int in
            state.requests.append(request)
            defer { state.nextInSequence += 1 }
            return state.nextInSequence
        }
        switch script {
        case .sequence(let replies):
            guard sequenceIndex < replies.count else {
                throw ScriptedTransportError.scriptExhausted(requestNumber: sequenceIndex + 1)
            }
            return replies[sequenceIndex]
        case .routes(let routes, let fallback):
            return routes[Route(request)] ?? fallback
        case .closure(let respond):
            return try await respond(request)
        }
    }
}

/// Why a ``ScriptedTransport`` could not answer.
public struct ScriptedTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case scriptExhausted, invalidResponse
    }

    private let code: Code
    private let number: Int

    /// A sequence script ran out: request number `requestNumber` (1-based) had no reply.
    ///
    /// - Parameter requestNumber: The request's number.
    /// - Returns: The error.
    public static func scriptExhausted(requestNumber: Int) -> ScriptedTransportError {
        ScriptedTransportError(code: .scriptExhausted, number: requestNumber)
    }

    /// The scripted status is not a three-digit HTTP status code.
    ///
    /// - Parameter status: The status scripted.
    /// - Returns: The error.
    public static func invalidResponse(status: Int) -> ScriptedTransportError {
        ScriptedTransportError(code: .invalidResponse, number: status)
    }

    public var description: String {
        switch code {
        case .scriptExhausted: "the script has no reply for request #\(number)"
        case .invalidResponse: "cannot build a response with status \(number)"
        }
    }
}

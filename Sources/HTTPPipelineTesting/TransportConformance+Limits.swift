import Foundation
import HTTPPipeline

extension TransportConformance.Check {
    /// Cancelled while waiting for the head: prompt, and the transport goes on.
    public static let cancelledWhileWaitingForHead = Self(
        "cancel.head",
        "Cancelling the task while the response's head is awaited ends the call promptly, and the next request works.",
        requirement: "end a cancelled call within the suite's promptness (100 ms by default), throwing, and stay usable"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/slow", .init(body: Data("late".utf8), delay: .seconds(60)))
            $0.route("GET", "/after", .init(body: Data("after".utf8)))
        }
        let transport = try trial.transport()
        let request = try HTTPRequest(.get, "/slow", on: server)
        let call = Task { try await transport.send(request).body.collect(upTo: 1 << 20) }
        try await waitFor("the request to reach the server") { server.requests.count == 1 }
        try await requirePromptEnd(of: call, within: trial.promptness)
        let (_, after) = try await transport.exchange(HTTPRequest(.get, "/after", on: server))
        try require(after == Data("after".utf8), "the next request's body was \(after.count) bytes")
    }

    /// Cancelled mid-body: prompt, and the transport goes on.
    public static let cancelledMidBody = Self(
        "cancel.body", "Cancelling the task while the body streams ends the call promptly, and the next request works.",
        requirement: "end a body's stream within the suite's promptness when its task is cancelled, and stay usable"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/endless", .init(body: .endless(chunk: Data(count: 1024), every: .milliseconds(10))))
            $0.route("GET", "/after", .init(body: Data("after".utf8)))
        }
        let transport = try trial.transport()
        let request = try HTTPRequest(.get, "/endless", on: server)
        let reading = Locked(false)
        let call = Task {
            let response = try await transport.send(request)
            for try await _ in response.body { reading.withLock { $0 = true } }
        }
        try await waitFor("the body to stream") { reading.value }
        try await requirePromptEnd(of: call, within: trial.promptness)
        let (_, after) = try await transport.exchange(HTTPRequest(.get, "/after", on: server))
        try require(after == Data("after".utf8), "the next request's body was \(after.count) bytes")
    }

    /// A deadline cuts a server that drips.
    public static let deadlineCutsADrip = Self(
        "deadline.drip", "A request whose context has a deadline fails soon after it when the server drips its body.",
        requirement:
            "end the transfer within 250 ms and the suite's promptness after HTTPRequestContext.deadline, as a backstop to the layer that set it, however steadily bytes arrive"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/drip", .init(body: .endless(chunk: Data("x".utf8), every: .milliseconds(50))))
        }
        var request = try HTTPRequest(.get, "/drip", on: server)
        let limit = Duration.milliseconds(300)
        request.context.deadline = HTTPDeadline(after: limit)
        let clock = ContinuousClock()
        let start = clock.now
        let transport = try trial.transport()
        let ended = Task { await transport.failure(of: request) }
        let watchdog = Task {
            try await Task.sleep(for: limit + .milliseconds(250) + trial.promptness + .seconds(5))
            ended.cancel()
        }
        let error = await ended.value
        watchdog.cancel()
        let took = start.duration(to: clock.now)
        try require(error != nil, "the dripping body came back as success")
        try require(
            took <= limit + .milliseconds(250) + trial.promptness,
            "the transfer ended \(took) after it began, with a \(limit) deadline")
    }

    /// 64 concurrent requests all complete.
    public static let concurrentRequests = Self(
        "load.concurrent", "64 concurrent requests all complete, each with its own response.",
        requirement: "carry concurrent requests without mixing up or losing their responses"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/echo") { request in .init(body: Data((request.query ?? "").utf8)) }
        }
        let transport = try trial.transport()
        let requests = try (0..<64).map { try HTTPRequest(.get, "/echo?\($0)", on: server) }
        let mismatches = try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask { try await transport.exchange(request).1 == Data("\(index)".utf8) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 0 : 1) }
        }
        try require(mismatches == 0, "\(mismatches) of 64 responses were not their request's")
    }

    /// Sequential requests share a connection.
    public static let connectionReused = Self(
        "load.reuse", "Sequential requests to one server reuse their connections: ten take three at most.",
        requirement: "keep connections alive and reuse them"
    ) { trial in
        let server = try trial.server { $0.route("GET", "/again", .init(body: Data("again".utf8))) }
        let transport = try trial.transport()
        for _ in 0..<10 { _ = try await transport.exchange(HTTPRequest(.get, "/again", on: server)) }
        // One is the rule; a transport whose pool takes a connection back on another thread
        // (FoundationNetworking) may open a second when the next request comes first.
        try require(server.connectionsAccepted <= 3, "10 requests took \(server.connectionsAccepted) connections")
    }

    /// A POST reaches the server at most once.
    public static let postSentOnceOnDeadConnection = Self(
        "load.postOnce",
        "A POST whose connection the server closes unanswered reaches the server once, and fails as outcome unknown.",
        requirement:
            "never send a request that may not be resent (HTTPRequest.mayBeResentByTransport) a second time, even on a new connection after a kept-alive one died, and fail it with HTTPTransportError.outcomeUnknown"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/warm", .init(body: Data("warm".utf8)))
            // Reads the order, then closes the connection without a byte of answer.
            $0.route("POST", "/order", .raw(Data()))
        }
        let transport = try trial.transport()
        _ = try await transport.exchange(HTTPRequest(.get, "/warm", on: server))
        let order = try HTTPRequest(.post, "/order", on: server, body: HTTPBody(Data("book=1".utf8)))
        let error = await transport.failure(of: order)
        let posts = server.requests.filter { $0.method == "POST" }.count
        try require(posts == 1, "the server received the POST \(posts) times")
        try require(
            (error as? HTTPTransportError)?.isOutcomeUnknown == true,
            "the call ended in \(error.map { "\($0)" } ?? "success")")
    }

    /// An oversized head is refused with an error.
    public static let oversizedHeadRefused = Self(
        "hostile.head", "A response head larger than 4 MiB fails with an error, without exhausting memory.",
        requirement: "bound the head it reads and fail past the bound"
    ) { trial in
        let line = "X-Filler: " + String(repeating: "a", count: 1000) + "\r\n"
        let head = "HTTP/1.1 200 OK\r\n" + String(repeating: line, count: 4200)
        let server = try trial.server { $0.route("GET", "/huge", .raw(Data(head.utf8))) }
        let error = try await trial.transport().failure(of: HTTPRequest(.get, "/huge", on: server))
        try require(error != nil, "a 4 MiB head that never ends came back as a response")
    }

    /// A large body streams.
    public static let largeBodyStreams = Self(
        "hostile.largeBody", "A 64 MiB body streams to the caller rather than arriving whole.",
        requirement: "stream a body larger than its buffering limit, so that one larger than memory can be read"
    ) { trial in
        let chunk = Data(count: 64 << 10)
        let server = try trial.server { $0.route("GET", "/large", .init(body: .repeated(chunk, count: 1024))) }
        let response = try await trial.transport().send(HTTPRequest(.get, "/large", on: server))
        try require(response.body.bufferedData == nil, "the 64 MiB body arrived buffered")
        var total = 0
        for try await part in response.body { total += part.count }
        try require(total == 64 << 20, "\(total) bytes of \(64 << 20) came")
    }
}

/// Polls `condition` every 5 ms for up to a minute (a loaded machine may be that slow to get
/// there); fails the check when it never holds.
func waitFor(_ what: String, _ condition: () -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(60))
    while !condition() {
        guard clock.now < deadline else { throw TransportConformance.Broken(observed: "waited a minute for \(what)") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// How a cancelled call ended: on its own (successfully or not), or not within the limit.
private enum Ending: Sendable {
    case ended(succeeded: Bool)
    case late
}

/// Cancels `call` and fails the check unless it ends, throwing, within `limit`. A call that has
/// not ended by then is left running: stopping the check's servers ends it.
func requirePromptEnd<T: Sendable>(of call: Task<T, any Error>, within limit: Duration) async throws {
    let clock = ContinuousClock()
    let start = clock.now
    call.cancel()
    let ending = await withCheckedContinuation { (continuation: CheckedContinuation<Ending, Never>) in
        let waiting = Locked<CheckedContinuation<Ending, Never>?>(continuation)
        @Sendable func finish(_ ending: Ending) {
            waiting.withLock { waiter in
                waiter?.resume(returning: ending)
                waiter = nil
            }
        }
        Task {
            if case .success = await call.result {
                finish(.ended(succeeded: true))
            } else {
                finish(.ended(succeeded: false))
            }
        }
        Task {
            try? await Task.sleep(for: limit + .milliseconds(10))
            finish(.late)
        }
    }
    let took = start.duration(to: clock.now)
    switch ending {
    case .ended(succeeded: true): throw TransportConformance.Broken(observed: "the cancelled call succeeded")
    case .ended: try require(took <= limit, "the call ended \(took) after its task was cancelled")
    case .late:
        throw TransportConformance.Broken(observed: "the call had not ended \(limit) after its task was cancelled")
    }
}

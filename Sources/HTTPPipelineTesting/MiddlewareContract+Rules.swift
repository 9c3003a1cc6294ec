import Foundation
import HTTPPipeline

extension MiddlewareContract {
    static let body = Data("contract body".utf8)
    static let headers = ["X-Contract": "kept"]

    func checkPassThrough(_ middleware: some HTTPMiddleware, _ request: HTTPRequest) async -> String? {
        let transport = ScriptedTransport(respond: { _ in .status(200, headers: Self.headers, body: Self.body) })
        let pipeline = Pipeline(transport: transport) { middleware }
        do {
            let response = try await pipeline.send(request)
            let data = try await response.body.collect(upTo: 1 << 20)
            guard let sent = transport.requests.first else { return "the request never reached the transport" }
            if sent.url != request.url { return "the URL changed" }
            if sent.method != request.method { return "the method changed" }
            if sent.fields != request.fields {
                let before = request.fields.map(\.name)
                let after = sent.fields.map(\.name)
                return "the headers changed: \(before) became \(after)"
            }
            if sent.body?.bufferedData != request.body?.bufferedData { return "the body changed" }
            if data != Self.body { return "the response body changed" }
            if response.status != 200 { return "the status changed to \(response.status)" }
            if response.fields["X-Contract"] != "kept" { return "a response header was lost" }
            return nil
        } catch {
            return "the call threw \(type(of: error))"
        }
    }

    func checkCallsNext<Middleware: HTTPMiddleware>(_ makeMiddleware: () -> Middleware) async -> String? {
        let succeeding = ScriptedTransport(respond: { _ in .status(200, body: Self.body) })
        do {
            let middleware = makeMiddleware()
            _ = try await Pipeline(transport: succeeding) { middleware }.send(request)
        } catch {
            return "a successful exchange threw \(type(of: error))"
        }
        if succeeding.requests.count != 1 {
            return "next was called \(succeeding.requests.count) times on a successful exchange"
        }
        for reply: ScriptedTransport.Reply in [.status(503), .failure(URLError(.timedOut))] {
            let failing = ScriptedTransport(respond: { _ in reply })
            let middleware = makeMiddleware()
            _ = try? await Pipeline(transport: failing) { middleware }.send(request)
            let calls = failing.requests.count
            if calls < 1 || calls > maximumCallsToNext {
                return "next was called \(calls) times when every attempt failed (allowed 1...\(maximumCallsToNext))"
            }
        }
        return await checkRepeatedRequest(makeMiddleware())
    }

    /// Sends the request twice, then a request for another URL, through one middleware: each
    /// reaches `next`, except that a middleware that may answer without calling next may answer
    /// the repeat itself, with what `next` gave the first time.
    func checkRepeatedRequest(_ middleware: some HTTPMiddleware) async -> String? {
        let transport = ScriptedTransport(respond: { request in
            .status(200, headers: Self.headers, body: Data("contract body for \(request.url.path)".utf8))
        })
        let pipeline = Pipeline(transport: transport) { middleware }
        var other = request
        other.url = request.url.appendingPathComponent("other")
        var calls = 0
        for (index, request) in [request, request, other].enumerated() {
            let outcome: HTTPResponse
            let body: Data
            do {
                outcome = try await pipeline.send(request)
                body = try await outcome.body.collect(upTo: 1 << 20)
            } catch {
                return "a successful exchange threw \(type(of: error))"
            }
            let called = transport.requests.count - calls
            calls = transport.requests.count
            if called > 1 { return "next was called \(called) times on a successful exchange" }
            guard called == 0 else { continue }
            switch index {
            case 1 where mayAnswerWithoutCallingNext:
                let expected = Data("contract body for \(request.url.path)".utf8)
                if body != expected { return "a repeated request was answered without next, with another body" }
                if outcome.status != 200 {
                    return "a repeated request was answered without next, with status \(outcome.status)"
                }
                if outcome.fields["X-Contract"] != "kept" {
                    return "a repeated request was answered without next, without the response's headers"
                }
            case 1:
                return "a repeated request was answered without calling next "
                    + "(declare mayAnswerWithoutCallingNext if answering from memory is the middleware's job)"
            case 2:
                return "a request for another URL was answered without calling next"
            default:
                return "next was called 0 times on a successful exchange"
            }
        }
        return nil
    }

    func checkOrdering(_ middleware: some HTTPMiddleware) async -> String? {
        let log = OrderLog()
        let transport = ScriptedTransport(respond: { _ in .status(200, body: Self.body) })
        let pipeline = Pipeline(transport: transport) {
            OrderProbe("outer", log: log)
            middleware
            OrderProbe("inner", log: log)
        }
        do {
            _ = try await pipeline.send(request)
        } catch {
            return "a successful exchange threw \(type(of: error))"
        }
        let expected = ["outer>", "inner>", "inner<", "outer<"]
        let seen = log.events.map(\.description)
        return seen == expected ? nil : "expected \(expected.joined(separator: " ")), saw \(log)"
    }

    func checkErrorPropagation(_ middleware: some HTTPMiddleware) async -> String? {
        let marker = ContractMarkerError(id: UUID())
        let transport = ScriptedTransport(respond: { _ in .failure(marker) })
        do {
            _ = try await Pipeline(transport: transport) { middleware }.send(request)
            return "the call succeeded although the transport threw"
        } catch let error as ContractMarkerError where error == marker {
            return nil
        } catch {
            return "the transport's error came back as \(type(of: error))"
        }
    }

    func checkCancellation(_ middleware: some HTTPMiddleware) async -> String? {
        let entered = AsyncStream<Void>.makeStream()
        let transport = ScriptedTransport(respond: { _ in
            entered.continuation.yield()
            return .status(200).delayed(by: Self.cancellationTransportDelay)
        })
        let pipeline = Pipeline(transport: transport) { middleware }
        let request = self.request
        let clock = ContinuousClock()
        let call = Task {
            defer { entered.continuation.finish() }
            return try await pipeline.send(request)
        }
        var iterator = entered.stream.makeAsyncIterator()
        guard await iterator.next() != nil else {
            return "the call ended without reaching the transport, so cancellation could not be checked"
        }
        let start = clock.now
        call.cancel()
        guard let outcome = await Self.result(of: call, within: cancellationTimeLimit) else {
            return "the cancelled call had not ended \(cancellationTimeLimit) after its cancellation"
        }
        let elapsed = start.duration(to: clock.now)
        if elapsed > cancellationTimeLimit {
            return "the cancelled call took \(elapsed) to end"
        }
        switch outcome {
        case .success:
            return "the cancelled call succeeded"
        case .failure(let error) where error is CancellationError:
            return nil
        case .failure(let error as URLError) where error.code == .cancelled:
            return nil
        case .failure where changesErrors:
            return nil
        case .failure(let error):
            return "the cancelled call threw \(type(of: error)), not a cancellation error"
        }
    }
}

extension MiddlewareContract {
    /// How long the cancellation check's transport waits before it answers, unless cancelled:
    /// far longer than any time limit, so a call that ignores its cancellation is caught.
    static let cancellationTransportDelay = Duration.seconds(600)

    /// A task's result, or `nil` when it has not ended within `limit` (the task is then left
    /// to end on its own).
    static func result<Success: Sendable>(
        of task: Task<Success, any Error>,
        within limit: Duration
    ) async -> Result<Success, any Error>? {
        let pending = Locked<CheckedContinuation<Result<Success, any Error>?, Never>?>(nil)
        let timer = Locked<Task<Void, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            pending.withLock { $0 = continuation }
            timer.withLock { timer in
                timer = Task {
                    // Cancelled, the timer did not run out: the task ended, and answers itself.
                    // (`try?` here once took a cancelled sleep for the limit, and a prompt task
                    // for one still running.)
                    do { try await Task.sleep(for: limit) } catch { return }
                    take(pending)?.resume(returning: nil)
                }
            }
            Task {
                let result = await task.result
                timer.withLock { $0 }?.cancel()
                take(pending)?.resume(returning: result)
            }
        }
    }

    /// The value held, once: whoever takes it first resumes the wait.
    private static func take<Value: Sendable>(_ locked: Locked<Value?>) -> Value? {
        locked.withLock { value in
            defer { value = nil }
            return value
        }
    }
}

/// The error the contract's transport throws, recognisable by its identity.
struct ContractMarkerError: Error, Equatable {
    let id: UUID
}

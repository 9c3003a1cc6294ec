#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// One request's life in a session: the head's arrival, then the body's chunks, queued for one
/// reader, with the transfer paused while the reader is far behind.
final class SessionExchange: Sendable {
    /// Above this many queued bytes the transfer is paused; below ``resumeBelow`` it goes on.
    static let pauseAbove = 4 << 20
    static let resumeBelow = 1 << 20

    private struct State: @unchecked Sendable {
        // @unchecked: `URLSessionTask` is not marked `Sendable` on every platform; it is only
        // asked to resume, suspend or cancel, which URLSession allows from any thread.
        var task: URLSessionTask?
        var headWaiter: CheckedContinuation<URLResponse, any Error>?
        var headArrived = false
        var chunks: [Data] = []
        var nextChunk = 0
        var queuedBytes = 0
        var end: Result<Void, any Error>?
        var readWaiter: CheckedContinuation<Data?, any Error>?
        var paused = false
    }

    private let state = Locked(State())
    private let progress: (@Sendable (HTTPTransferProgress) -> Void)?
    private let counts = Locked(HTTPTransferProgress())

    /// - Parameter progress: Called as bytes go out and come in, if set.
    init(progress: (@Sendable (HTTPTransferProgress) -> Void)? = nil) {
        self.progress = progress
    }

    /// Starts `task` and waits for the response head.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled, or what the session
    ///   reported before a head arrived.
    func start(_ task: URLSessionTask, router: SessionRouter) async throws -> URLResponse {
        router.register(self, for: task)
        state.withLock { $0.task = task }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    state.withLock { $0.headWaiter = continuation }
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
            throw CancellationError()
        }
    }

    func receive(_ response: URLResponse) {
        let waiter = state.withLock { state in
            state.headArrived = true
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: response)
        guard let progress else { return }
        let expected = response.expectedContentLength
        progress(
            counts.withLock { counts in
                counts.expectedReceivedBytes = expected >= 0 ? expected : nil
                return counts
            })
    }

    func sent(_ bytes: Int64, of expected: Int64) {
        guard let progress else { return }
        progress(
            counts.withLock { counts in
                counts.sentBytes = bytes
                counts.expectedSentBytes = expected >= 0 ? expected : nil
                return counts
            })
    }

    func receive(_ data: Data) {
        let (waiter, pause) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, URLSessionTask?) in
            if let waiter = state.readWaiter {
                state.readWaiter = nil
                return (waiter, nil)
            }
            state.chunks.append(data)
            state.queuedBytes += data.count
            guard state.queuedBytes > Self.pauseAbove, !state.paused else { return (nil, nil) }
            state.paused = true
            return (nil, state.task)
        }
        waiter?.resume(returning: data)
        pause?.suspend()
        guard let progress else { return }
        progress(
            counts.withLock { counts in
                counts.receivedBytes += Int64(data.count)
                return counts
            })
    }

    func complete(_ error: (any Error)?) {
        let (headWaiter, readWaiter) = state.withLock { state in
            state.end = error.map { .failure($0) } ?? .success(())
            defer {
                state.headWaiter = nil
                state.readWaiter = nil
            }
            return (state.headWaiter, state.readWaiter)
        }
        if let headWaiter {
            headWaiter.resume(throwing: error ?? HTTPTransportError.nonHTTPResponse)
        }
        if let readWaiter {
            if let error { readWaiter.resume(throwing: error) } else { readWaiter.resume(returning: nil) }
        }
    }

    /// The next chunk of the body, waiting for it when none is queued; `nil` at the end.
    fileprivate func next() async throws -> Data? {
        enum Step {
            case chunk(Data, resume: URLSessionTask?)
            case end(Result<Void, any Error>)
            case wait
        }
        let step = state.withLock { state -> Step in
            if state.nextChunk < state.chunks.endIndex {
                let chunk = state.chunks[state.nextChunk]
                state.chunks[state.nextChunk] = Data()
                state.nextChunk += 1
                if state.nextChunk == state.chunks.endIndex {
                    state.chunks.removeAll(keepingCapacity: true)
                    state.nextChunk = 0
                }
                state.queuedBytes -= chunk.count
                guard state.paused, state.queuedBytes < Self.resumeBelow else { return .chunk(chunk, resume: nil) }
                state.paused = false
                return .chunk(chunk, resume: state.task)
            }
            if let end = state.end { return .end(end) }
            return .wait
        }
        switch step {
        case .chunk(let chunk, let task):
            task?.resume()
            return chunk
        case .end(let end):
            try Self.rethrow(end)
            return nil
        case .wait:
            let task = state.withLock { $0.task }
            do {
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        let ready = state.withLock { state -> Result<Data?, any Error>? in
                            if state.nextChunk < state.chunks.endIndex || state.end != nil { return .success(nil) }
                            state.readWaiter = continuation
                            return nil
                        }
                        // Something arrived between the look and the wait: look again.
                        if ready != nil { continuation.resume(throwing: Retry()) }
                    }
                } onCancel: {
                    task?.cancel()
                }
            } catch is Retry {
                return try await next()
            }
        }
    }

    /// The transfer is no longer wanted: its body was dropped.
    fileprivate func abandon() {
        let task = state.withLock { $0.end == nil ? $0.task : nil }
        task?.cancel()
    }

    private static func rethrow(_ end: Result<Void, any Error>) throws {
        guard case .failure(let error) = end else { return }
        if let urlError = error as? URLError, urlError.code == .cancelled, Task.isCancelled {
            throw CancellationError()
        }
        throw error
    }

    private struct Retry: Error {}

    /// The one reader of an exchange's body; when it is gone unfinished, the transfer is cancelled.
    final class Reader: Sendable {
        private let exchange: SessionExchange

        init(_ exchange: SessionExchange) {
            self.exchange = exchange
        }

        deinit {
            exchange.abandon()
        }

        func next() async throws -> Data? {
            do {
                return try await exchange.next()
            } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
                throw CancellationError()
            }
        }
    }

    /// The body's chunks, as a sequence an ``HTTPBody`` streams once.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let reader: Reader
        var first: Data?

        init(reader: Reader, first: Data? = nil) {
            self.reader = reader
            self.first = first
        }

        func makeAsyncIterator() -> Iterator {
            Iterator(reader: reader, first: first)
        }

        struct Iterator: AsyncIteratorProtocol {
            let reader: Reader
            var first: Data?

            mutating func next() async throws -> Data? {
                if let first {
                    self.first = nil
                    return first
                }
                return try await reader.next()
            }
        }
    }
}

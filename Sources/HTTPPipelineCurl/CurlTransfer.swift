import Foundation
import HTTPPipeline

/// One request's life in the engine, as the async side sees it: the head's arrival, then the
/// body's chunks queued for one reader with back-pressure, then the end.
///
/// The engine thread calls ``deliver(_:)``, ``offer(_:count:)`` and ``complete(_:)``; the
/// caller's task waits in ``start(on:)`` and the body's reader in ``next(engine:)``. Everything
/// both sides touch is in ``state``, under its lock; continuations are resumed outside it.
final class CurlTransfer: Sendable {
    /// What `send` hands back: a head with its whole body, or a head whose body streams.
    enum Head: Sendable {
        case buffered(HTTPResponseHead, Data)
        case streaming(HTTPResponseHead)
    }

    /// What the write callback does with bytes: took them, or pauses the transfer until the
    /// reader catches up (libcurl hands the same bytes again when it resumes).
    enum Offer {
        case taken
        case pause
    }

    /// The most bytes queued for the reader; past them the transfer pauses.
    static let highWater = 1 << 20
    /// A paused transfer resumes once the reader has brought the queue down to this.
    static let lowWater = 256 << 10

    private struct State: Sendable {
        var headWaiter: CheckedContinuation<Head, any Error>?
        var headDelivered = false
        var queue = ChunkQueue()
        var receivePaused = false
        var cancelled = false
        var end: Result<Void, any Error>?
        var readWaiter: CheckedContinuation<Data?, any Error>?
    }

    /// What the engine thread needs to set up the easy handle.
    let request: CurlRequest
    /// The attempt's metrics, filled when it ends; the response carries it.
    let record = HTTPTransferRecord()
    /// Where the request body comes from while it streams; `nil` for none or a buffered one.
    let upload: CurlUpload?
    private let state = Locked(State())

    init(request: CurlRequest, upload: CurlUpload?) {
        self.request = request
        self.upload = upload
    }

    /// Hands the transfer to `engine` and waits for its head (and, for a short body, the body).
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled (the transfer is removed
    ///   at once), ``CurlTransportError`` when libcurl failed before the head arrived.
    func start(on engine: CurlEngine) async throws -> Head {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ended = state.withLock { state -> Result<Void, any Error>? in
                    if let end = state.end { return end }
                    state.headWaiter = continuation
                    return nil
                }
                switch ended {
                case nil: engine.add(self)
                case .failure(let error)?: continuation.resume(throwing: error)
                case .success?: continuation.resume(throwing: HTTPTransportError.nonHTTPResponse)
                }
            }
        } onCancel: {
            cancel(on: engine)
        }
    }

    /// Aborts the transfer: marked first, so an `add` the engine has not taken yet is dropped.
    func cancel(on engine: CurlEngine) {
        state.withLock { $0.cancelled = true }
        engine.cancel(self)
    }

    /// Whether the transfer was cancelled.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// The head is in (engine thread): the caller's `send` returns.
    func deliver(_ head: Head) {
        let waiter = state.withLock { state in
            defer { state.headWaiter = nil }
            state.headDelivered = true
            return state.headWaiter
        }
        waiter?.resume(returning: head)
    }

    /// Body bytes from the write callback (engine thread).
    func offer(_ bytes: UnsafeRawPointer, count: Int) -> Offer {
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>?? in
            if let waiter = state.readWaiter {
                state.readWaiter = nil
                return .some(waiter)
            }
            guard state.queue.bytes < Self.highWater else {
                state.receivePaused = true
                return nil
            }
            state.queue.append(Data(bytes: bytes, count: count))
            return .some(nil)
        }
        switch waiter {
        case nil: return .pause
        case .some(nil): return .taken
        case .some(let waiter?):
            waiter.resume(returning: Data(bytes: bytes, count: count))
            return .taken
        }
    }

    /// The transfer ended (engine thread): a waiting `send` or reader learns how.
    ///
    /// - Parameters:
    ///   - end: Success, or why it failed.
    ///   - head: The head and whole body of a buffered response, to hand a waiting `send`.
    func complete(_ end: Result<Void, any Error>, head: Head? = nil) {
        let (headWaiter, readWaiter) = state.withLock { state in
            state.end = end
            defer {
                state.headWaiter = nil
                state.readWaiter = nil
            }
            return (state.headWaiter, state.readWaiter)
        }
        upload?.cancel()
        if let headWaiter {
            switch (end, head) {
            case (.success, let head?): headWaiter.resume(returning: head)
            case (.failure(let error), _): headWaiter.resume(throwing: error)
            case (.success, nil): headWaiter.resume(throwing: HTTPTransportError.nonHTTPResponse)
            }
        }
        if let readWaiter {
            switch end {
            case .success: readWaiter.resume(returning: nil)
            case .failure(let error): readWaiter.resume(throwing: error)
            }
        }
    }

    /// Whether the transfer has ended.
    var hasEnded: Bool { state.withLock { $0.end != nil } }

    /// The next chunk of the body, waiting for one when none is queued; `nil` at the end.
    func next(engine: CurlEngine) async throws -> Data? {
        if let step = state.withLock({ Self.take(from: &$0) }) {
            return try step.chunk(engine: engine, transfer: self)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Something may have arrived since the first look: take it, or wait.
                let step = state.withLock { state -> Step? in
                    if let step = Self.take(from: &state) { return step }
                    state.readWaiter = continuation
                    return nil
                }
                guard let step else { return }
                continuation.resume(with: Result { try step.chunk(engine: engine, transfer: self) })
            }
        } onCancel: {
            cancel(on: engine)
        }
    }

    /// What a reader gets now: a queued chunk, the end, or `nil` to wait.
    private enum Step {
        case chunk(Data, resume: Bool)
        case end(Result<Void, any Error>)

        func chunk(engine: CurlEngine, transfer: CurlTransfer) throws -> Data? {
            switch self {
            case .chunk(let chunk, let resume):
                if resume { engine.resume(transfer, .receive) }
                return chunk
            case .end(.success): return nil
            case .end(.failure(let error)): throw error
            }
        }
    }

    private static func take(from state: inout State) -> Step? {
        if let chunk = state.queue.take() {
            // The transfer paused on a full queue; it goes on once the reader has made room.
            let resume = state.receivePaused && state.queue.bytes <= lowWater
            if resume { state.receivePaused = false }
            return .chunk(chunk, resume: resume)
        }
        if let end = state.end { return .end(end) }
        return nil
    }
}

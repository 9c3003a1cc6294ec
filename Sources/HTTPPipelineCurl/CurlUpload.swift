import Foundation
import HTTPPipeline

/// A streamed request body on its way to libcurl: a task pulls the body's chunks into a bounded
/// queue, and the read callback (engine thread) copies bytes out of it. When the queue is empty
/// the callback pauses the upload; the next chunk resumes it. When it is full the pulling task
/// waits, so memory stays flat however large the body.
final class CurlUpload: Sendable {
    /// What the read callback does now.
    enum Read {
        /// Copied this many bytes (`0`: the body ended).
        case bytes(Int)
        /// Nothing is ready: pause the upload until a chunk arrives.
        case pause
        /// Reading the body failed: abort the transfer.
        case abort
    }

    /// The most bytes queued before the pulling task waits.
    static let limit = 1 << 20

    private struct State: Sendable {
        var chunks: [Data] = []
        /// How far into the first chunk the callback has copied.
        var offset = 0
        var queuedBytes = 0
        var end: Result<Void, any Error>?
        var paused = false
        var cancelled = false
        var pullWaiter: CheckedContinuation<Void, any Error>?
        var pull: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// Starts pulling `body` for `transfer` on `engine`, in a task of its own that ends with the
    /// transfer.
    func pull(_ body: HTTPBody, for transfer: CurlTransfer, on engine: CurlEngine) {
        let task = Task {
            do {
                for try await chunk in body where !chunk.isEmpty {
                    try await push(chunk, transfer: transfer, engine: engine)
                }
                finish(.success(()), transfer: transfer, engine: engine)
            } catch {
                finish(.failure(error), transfer: transfer, engine: engine)
            }
        }
        let cancelled = state.withLock { state in
            state.pull = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    private func push(_ chunk: Data, transfer: CurlTransfer, engine: CurlEngine) async throws {
        let (resume, full) = try state.withLock { state throws -> (Bool, Bool) in
            if state.cancelled { throw CancellationError() }
            state.chunks.append(chunk)
            state.queuedBytes += chunk.count
            defer { state.paused = false }
            return (state.paused, state.queuedBytes >= Self.limit)
        }
        if resume { engine.resume(transfer, .send) }
        guard full else { return }
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Void, any Error>? in
                if state.cancelled { return .failure(CancellationError()) }
                if state.queuedBytes < Self.limit { return .success(()) }
                state.pullWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    private func finish(_ end: Result<Void, any Error>, transfer: CurlTransfer, engine: CurlEngine) {
        let resume = state.withLock { state in
            if state.end == nil { state.end = end }
            defer { state.paused = false }
            return state.paused
        }
        if resume { engine.resume(transfer, .send) }
    }

    /// Copies up to `count` bytes into `buffer` (engine thread).
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Read {
        let (read, waiter) = state.withLock { state -> (Read, CheckedContinuation<Void, any Error>?) in
            var copied = 0
            while copied < count, let first = state.chunks.first {
                let available = first.count - state.offset
                let taken = min(available, count - copied)
                let start = first.startIndex + state.offset
                first.copyBytes(
                    to: UnsafeMutableRawBufferPointer(start: buffer + copied, count: taken),
                    from: start..<start + taken)
                copied += taken
                state.offset += taken
                if state.offset == first.count {
                    state.chunks.removeFirst()
                    state.offset = 0
                }
            }
            state.queuedBytes -= copied
            if copied > 0 {
                let waiter = state.queuedBytes < Self.limit ? state.pullWaiter : nil
                if waiter != nil { state.pullWaiter = nil }
                return (.bytes(copied), waiter)
            }
            switch state.end {
            case .success?: return (.bytes(0), nil)
            case .failure?: return (.abort, nil)
            case nil:
                state.paused = true
                return (.pause, nil)
            }
        }
        waiter?.resume()
        return read
    }

    /// Why the body could not be read, when it could not.
    var failure: (any Error)? {
        state.withLock { state in
            if case .failure(let error)? = state.end { return error }
            return nil
        }
    }

    /// The transfer ended: stop pulling.
    func cancel() {
        let (waiter, task) = state.withLock { state in
            state.cancelled = true
            defer { state.pullWaiter = nil }
            return (state.pullWaiter, state.pull)
        }
        waiter?.resume(throwing: CancellationError())
        task?.cancel()
    }
}

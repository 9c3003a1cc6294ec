import HTTPPipeline

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// One request's life in a session: the head's arrival, then the body's chunks, queued for one
/// reader.
///
/// URLSession cannot pause a transfer on Linux (`suspend()` mid-transfer ends in a fatal error in
/// FoundationNetworking, or resends the request and appends the new bytes), so a
/// reader slower than the network cannot hold the bytes back. Instead, past ``memoryLimit``
/// queued bytes the rest are written to a spill file and read back in order: memory stays flat,
/// and the disk holds what the reader has not taken yet.
final class SessionExchange: Sendable {
    /// The most bytes queued in memory; later ones go to the spill file until the reader catches up.
    static let memoryLimit = 4 << 20
    /// The most bytes read back from the spill file at a time.
    static let spillReadSize = 256 << 10

    private struct State: @unchecked Sendable {
        // @unchecked: `URLSessionTask` is not marked `Sendable` on every platform; it is only
        // asked to resume or cancel, which URLSession allows from any thread. `SpillFile` is
        // only touched under this state's lock.
        var task: URLSessionTask?
        /// The session's delegate, through which the task is cancelled.
        var router: SessionRouter?
        var headWaiter: CheckedContinuation<URLResponse, any Error>?
        var queue = ChunkQueue()
        var spill: SpillFile?
        var spillError: (any Error)?
        var end: Result<Void, any Error>?
        var readWaiter: CheckedContinuation<Data?, any Error>?
        /// The transfer was cancelled: bytes that still arrive are not wanted.
        var cancelled = false
        /// Bytes arrived after the cancel and were dropped: the body can only end in failure.
        var dropped = false
        /// The session reported the response head (`didReceive(response:)`).
        var headArrived = false
        /// A head the session never reported, taken from the task as it completed.
        var lateHead: URLResponse?
        /// The request's deadline backstop, armed until the transfer ends.
        var backstop: DeadlineAction?
        /// The backstop fired: the transfer was cancelled because the deadline passed.
        var expired = false
        /// The session asked for credentials after loading the whole response, and the refusal
        /// ends the task as cancelled.
        var challenged = false
        /// The body's bytes handed up so far, published to the record when the transfer ends.
        var bodyBytes: Int64 = 0
    }

    private let state = Locked(State())
    /// The attempt's metrics as this side of URLSession sees them: when the head and the last
    /// byte came, the bytes handed over and sent.
    let record = HTTPTransferRecord()
    private let started = ContinuousClock.now
    private let progress: (@Sendable (HTTPTransferProgress) -> Void)?
    private let counts = Locked(HTTPTransferProgress())
    private let spillDirectory: URL
    /// Whether the session follows a redirect, or hands the 3xx response back.
    let followsRedirects: Bool
    /// Whether the request's `Cookie` field is the caller's (sent on as it is) rather than the
    /// cookie jar's.
    let callerSetCookies: Bool

    /// - Parameters:
    ///   - progress: Called as bytes go out and come in, if set.
    ///   - spillDirectory: Where bytes the reader has not taken go past ``memoryLimit``.
    ///   - followsRedirects: Whether the session follows a redirect.
    ///   - callerSetCookies: Whether the request's `Cookie` field is the caller's.
    init(
        progress: (@Sendable (HTTPTransferProgress) -> Void)? = nil, spillDirectory: URL,
        followsRedirects: Bool = false,
        callerSetCookies: Bool = false
    ) {
        self.progress = progress
        self.spillDirectory = spillDirectory
        self.followsRedirects = followsRedirects
        self.callerSetCookies = callerSetCookies
    }

    /// Starts `task` and waits for the response head.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled, or what the session
    ///   reported before a head arrived.
    func start(_ task: URLSessionTask, router: SessionRouter) async throws -> URLResponse {
        router.register(self, for: task)
        state.withLock {
            $0.task = task
            $0.router = router
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    // Cancelled before this point, the task may have ended already: then it
                    // never calls back again, and the end is the answer.
                    let ended = state.withLock { state -> (Result<Void, any Error>, URLResponse?)? in
                        if let end = state.end { return (end, state.lateHead) }
                        state.headWaiter = continuation
                        return nil
                    }
                    if let (end, head) = ended {
                        continuation.resume(with: Self.headAnswer(end: end, head: head))
                    } else {
                        task.resume()
                    }
                }
            } onCancel: {
                router.cancel(task)
            }
        } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
            throw CancellationError()
        }
    }

    func receive(_ response: URLResponse) {
        let elapsed = started.duration(to: .now)
        record.update { $0.firstByte = elapsed }
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
        let (waiter, failedSpill, dropped) = state.withLock {
            state -> (CheckedContinuation<Data?, any Error>?, failedSpill: Bool, dropped: Bool) in
            // After a cancel nobody reads the bytes: they are neither queued, spilled nor
            // reported while the cancel waits its turn on the delegate queue.
            if state.cancelled {
                state.dropped = true
                return (nil, false, true)
            }
            state.bodyBytes += Int64(data.count)
            // After bytes could not be kept, none may follow them: the body ends in that error.
            guard state.spillError == nil else { return (nil, false, false) }
            if let waiter = state.readWaiter {
                state.readWaiter = nil
                return (waiter, false, false)
            }
            let spilling = state.spill?.hasUnread ?? false
            guard spilling || state.queue.bytes + data.count > Self.memoryLimit else {
                state.queue.append(data)
                return (nil, false, false)
            }
            do {
                if state.spill == nil { state.spill = try SpillFile(in: spillDirectory) }
                try state.spill?.append(data)
                return (nil, false, false)
            } catch {
                // Bytes that cannot be kept end the body with the file error, never a gap.
                state.spillError = error
                return (nil, true, false)
            }
        }
        guard !dropped else { return }
        waiter?.resume(returning: data)
        if failedSpill { cancelTransfer() }
        guard let progress else { return }
        progress(
            counts.withLock { counts in
                counts.receivedBytes += Int64(data.count)
                return counts
            })
    }

    /// What a caller waiting for the head gets once the transfer has ended: its failure, the head
    /// the session never reported, or, ended whole without a head, `nonHTTPResponse`.
    private static func headAnswer(end: Result<Void, any Error>, head: URLResponse?) -> Result<URLResponse, any Error> {
        switch (end, head) {
        case (.failure(let error), _): .failure(error)
        case (.success, let head?): .success(head)
        case (.success, nil): .failure(HTTPTransportError.nonHTTPResponse)
        }
    }

    /// Whether the session has not reported the response head.
    var awaitsHead: Bool { state.withLock { !$0.headArrived } }

    /// The transfer ended: with `error`, or whole. `lateHead` is the task's response, for a head
    /// the session never reported: FoundationNetworking ends a 3xx whose `Location` is missing
    /// or unusable without `didReceive(response:)`, and that 3xx is the answer.
    func complete(_ error: (any Error)?, lateHead: HTTPURLResponse? = nil, bytesSent: Int64? = nil) {
        let elapsed = started.duration(to: .now)
        let bodyBytes = state.withLock { $0.bodyBytes }
        record.update { metrics in
            metrics.lastByte = elapsed
            if metrics.firstByte == nil, lateHead != nil { metrics.firstByte = elapsed }
            metrics.bodyBytesDecoded = bodyBytes
            if let bytesSent { metrics.bytesSent = bytesSent }
        }
        let (headWaiter, readWaiter, end, head) = state.withLock { state in
            // A cancel that came too late for the session still cost the bytes dropped after it:
            // a body with bytes missing never ends as a success.
            let end: Result<Void, any Error> =
                if let spillError = state.spillError {
                    .failure(spillError)
                } else if state.expired, (error as? URLError)?.code == .cancelled {
                    .failure(URLError(.timedOut))
                } else if state.challenged, !state.cancelled, (error as? URLError)?.code == .cancelled {
                    .success(())
                } else if let error {
                    .failure(error)
                } else if state.dropped {
                    .failure(URLError(.cancelled))
                } else {
                    .success(())
                }
            state.end = end
            state.backstop?.disarm()
            state.backstop = nil
            if !state.headArrived, let lateHead { state.lateHead = lateHead }
            defer {
                state.headWaiter = nil
                state.readWaiter = nil
            }
            return (state.headWaiter, state.readWaiter, end, state.lateHead)
        }
        headWaiter?.resume(with: Self.headAnswer(end: end, head: head))
        if let readWaiter {
            if case .failure(let error) = end {
                readWaiter.resume(throwing: error)
            } else {
                readWaiter.resume(returning: nil)
            }
        }
    }

    /// The next chunk of the body, waiting for it when none is queued; `nil` at the end.
    fileprivate func next() async throws -> Data? {
        enum Step {
            case chunk(Data)
            case end(Result<Void, any Error>)
            case spillFailed(any Error)
            case wait
        }
        let step = state.withLock { state -> Step in
            if let chunk = state.queue.take() { return .chunk(chunk) }
            if let spill = state.spill, spill.hasUnread {
                do {
                    let chunk = try spill.read(upTo: Self.spillReadSize)
                    // Drained: the next overflow starts a new file, so the disk holds only what
                    // the reader has not taken yet.
                    if !spill.hasUnread { state.spill = nil }
                    return .chunk(chunk)
                } catch {
                    state.spillError = error
                    return .spillFailed(error)
                }
            }
            if let spillError = state.spillError { return .end(.failure(spillError)) }
            if let end = state.end { return .end(end) }
            return .wait
        }
        switch step {
        case .chunk(let chunk):
            return chunk
        case .end(let end):
            try Self.rethrow(end)
            return nil
        case .spillFailed(let error):
            cancelTransfer()
            throw error
        case .wait:
            do {
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        let ready = state.withLock { state -> Bool in
                            let queued = !state.queue.isEmpty || (state.spill?.hasUnread ?? false)
                            if queued || state.end != nil || state.spillError != nil { return true }
                            state.readWaiter = continuation
                            return false
                        }
                        // Something arrived between the look and the wait: look again.
                        if ready { continuation.resume(throwing: Retry()) }
                    }
                } onCancel: {
                    cancelTransfer()
                }
            } catch is Retry {
                return try await next()
            }
        }
    }

    /// The transfer is no longer wanted: its body was dropped.
    fileprivate func abandon() {
        guard state.withLock({ $0.end == nil }) else { return }
        cancelTransfer()
    }

    /// Cancels the transfer, unless the session has reported its end (``SessionRouter/cancel(_:)``).
    /// The session asks for credentials for a response it loaded whole (FoundationNetworking);
    /// refused, it ends the task as cancelled, and that end is the body's.
    func challengedAtEnd() {
        state.withLock { $0.challenged = true }
    }

    /// Cancels the transfer `delay` from now unless it ended by then, so that it ends in
    /// `URLError.timedOut`: the backstop for a request's deadline, which URLSession does not know.
    ///
    /// - Parameter delay: How long from now.
    func expire(after delay: Duration) {
        let backstop = DeadlineAction(after: delay) { [weak self] in
            guard let self else { return }
            let (task, router) = state.withLock { state -> (URLSessionTask?, SessionRouter?) in
                guard state.end == nil else { return (nil, nil) }
                state.expired = true
                return (state.task, state.router)
            }
            if let task, let router { router.cancel(task) }
        }
        let ended = state.withLock { state in
            state.backstop = backstop
            return state.end != nil
        }
        if ended { backstop.disarm() }
    }

    func cancelTransfer() {
        let (task, router) = state.withLock { state in
            state.cancelled = true
            return (state.task, state.router)
        }
        guard let task, let router else { return }
        router.cancel(task)
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

    /// The body's chunks, as a sequence an `HTTPBody` streams once.
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

/// Bytes a reader has not taken yet, past what the exchange keeps in memory: appended at the
/// end, read from the front, in order. The file is removed when this is released.
///
/// Not `Sendable`: used only under its exchange's lock.
final class SpillFile {
    private let file: URL
    private let writer: FileHandle
    private let reader: FileHandle
    private var written = 0
    private var read = 0

    init(in directory: URL) throws {
        file = directory.appendingPathComponent("http-pipeline-spill-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: directory.path])
        }
        do {
            writer = try FileHandle(forWritingTo: file)
            reader = try FileHandle(forReadingFrom: file)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        // The name is gone at once; the open handles keep the bytes until they close.
        try? FileManager.default.removeItem(at: file)
    }

    deinit {
        try? writer.close()
        try? reader.close()
    }

    var hasUnread: Bool { read < written }

    func append(_ data: Data) throws {
        try writer.write(contentsOf: data)
        written += data.count
    }

    func read(upTo count: Int) throws -> Data {
        let chunk = try reader.read(upToCount: min(count, written - read)) ?? Data()
        guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
        read += chunk.count
        return chunk
    }
}

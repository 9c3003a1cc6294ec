import HTTPPipeline

/// The slots and the queue one ``ConcurrencyLimitMiddleware`` (and every copy of it) shares.
///
/// Every change happens under one lock: a slot is taken, handed from a finishing call straight to
/// the next waiter (the count of calls in flight does not move), or given back. A waiter is
/// resumed exactly once, by whoever takes it out of `waiters` under the lock: the release that
/// hands it a slot, its queue timer, or its cancellation.
final class ConcurrencyLimiter: Sendable {
    /// Where one call that could not take a slot at once stands.
    enum Waiter: Sendable {
        /// Not yet in the queue: between ``enter()`` and the continuation.
        case arriving
        /// Cancelled while arriving: its continuation, when it comes, throws at once.
        case cancelledOnArrival
        /// In the queue, with its queue timer if one is armed yet.
        case waiting(UnsafeContinuation<Void, any Error>, (@Sendable () -> Void)?)
    }

    struct State: Sendable {
        var inFlight = 0
        var queue = WaitQueue()
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }

    /// What ``enter()`` decided.
    enum Entry {
        case granted
        case mustWait(id: Int)
    }

    let limit: Int
    let maximumQueueLength: Int
    let queueTimeout: Duration?
    let timeline: Timeline
    private let state = Locked(State())

    init(limit: Int, maximumQueueLength: Int, queueTimeout: Duration?, timeline: Timeline) {
        self.limit = limit
        self.maximumQueueLength = maximumQueueLength
        self.queueTimeout = queueTimeout
        self.timeline = timeline
    }

    var inFlight: Int { state.withLock { $0.inFlight } }
    var queued: Int { state.withLock { $0.queue.count } }

    /// Waits in the queue, with the ticket ``enter()`` gave, until the call holds a slot.
    ///
    /// - Throws: ``ConcurrencyLimitError`` when the queue is full or the queue timeout passes,
    ///   `CancellationError` when the caller is cancelled while waiting; no slot is held then.
    func waitForSlot(_ id: Int, priority: Bool) async throws {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                wait(id, priority: priority, continuation)
            }
        } onCancel: {
            leave(id, with: CancellationError())
        }
    }

    /// Takes a slot at once when one is free and nobody waits (the fast path: one lock, no
    /// `await`), or gives a ticket to wait with (``waitForSlot(_:priority:)``).
    func enter() -> Entry {
        state.withLock { state in
            if state.inFlight < limit, state.queue.count == 0 {
                state.inFlight += 1
                return .granted
            }
            state.nextID += 1
            state.waiters[state.nextID] = .arriving
            return .mustWait(id: state.nextID)
        }
    }

    /// Queues the arriving waiter `id`, or settles it at once: cancelled, a slot came free, or the
    /// queue is full.
    private func wait(_ id: Int, priority: Bool, _ continuation: UnsafeContinuation<Void, any Error>) {
        let settled = state.withLock { state -> Result<Void, any Error>? in
            guard case .arriving = state.waiters[id] else {
                state.waiters[id] = nil
                return .failure(CancellationError())
            }
            if state.inFlight < limit, state.queue.count == 0 {
                state.waiters[id] = nil
                state.inFlight += 1
                return .success(())
            }
            guard state.queue.count < maximumQueueLength else {
                state.waiters[id] = nil
                return .failure(ConcurrencyLimitError(.queueFull, limit: limit, queueLength: state.queue.count))
            }
            state.queue.append(id, priority: priority)
            state.waiters[id] = .waiting(continuation, nil)
            return nil
        }
        if let settled {
            continuation.resume(with: settled)
            return
        }
        guard let queueTimeout else { return }
        let disarm = timeline.armTimer(after: queueTimeout) { [self] in
            leave(id, with: ConcurrencyLimitError(.queueTimeout(queueTimeout), limit: limit, queueLength: 0))
        }
        let armed = state.withLock { state -> Bool in
            guard case .waiting(let continuation, nil) = state.waiters[id] else { return false }
            state.waiters[id] = .waiting(continuation, disarm)
            return true
        }
        if !armed { disarm() }
    }

    /// Lets waiter `id` go with `CancellationError`, unless it was settled first (its call's
    /// deadline was cut).
    func abandon(_ id: Int) {
        leave(id, with: CancellationError())
    }

    /// Takes waiter `id` out of the queue and resumes it with `error`, unless it was settled
    /// first; an arriving waiter is marked so that it throws as soon as it arrives.
    private func leave(_ id: Int, with error: any Error) {
        let left = state.withLock { state -> (UnsafeContinuation<Void, any Error>, (@Sendable () -> Void)?, Int)? in
            switch state.waiters[id] {
            case .arriving?:
                state.waiters[id] = .cancelledOnArrival
                return nil
            case .waiting(let continuation, let timer)?:
                state.waiters[id] = nil
                state.queue.remove(id)
                return (continuation, timer, state.queue.count)
            case .cancelledOnArrival?, nil:
                return nil
            }
        }
        guard let (continuation, timer, queueLength) = left else { return }
        timer?()
        if let rejection = error as? ConcurrencyLimitError {
            continuation.resume(
                throwing: ConcurrencyLimitError(rejection.reason, limit: limit, queueLength: queueLength))
        } else {
            continuation.resume(throwing: error)
        }
    }

    /// Gives a slot back: to the next waiter if there is one (the count in flight stays), else to
    /// the pool. Call it exactly once per slot taken.
    func release() {
        let next = state.withLock { state -> (UnsafeContinuation<Void, any Error>, (@Sendable () -> Void)?)? in
            while let id = state.queue.popFirst() {
                guard case .waiting(let continuation, let timer)? = state.waiters.removeValue(forKey: id) else {
                    continue
                }
                return (continuation, timer)
            }
            state.inFlight -= 1
            return nil
        }
        guard let (continuation, timer) = next else { return }
        timer?()
        continuation.resume()
    }
}

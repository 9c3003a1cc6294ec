public import HTTPPipeline

extension ManualClock: TimerScheduling {
    /// The deadlines of the timers still armed (a timeout's, a retry deadline's), earliest first.
    /// Sleepers are not among them: see ``pendingDeadlines``.
    public var pendingTimers: [Instant] {
        state.withLock { $0.timers.map(\.deadline).sorted() }
    }

    /// Waits until at least `count` timers are armed on the clock.
    ///
    /// Call it before ``advance(by:)`` so the code under test has really armed its timeout.
    /// - Parameter count: How many armed timers to wait for.
    public func waitForTimers(_ count: Int) async {
        await waitUntil(count, pending: \.timers.count, waiters: \.timerWaiters)
    }

    package func scheduleTimer(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> Int {
        let (id, firesNow, ready) = state.withLock { state -> (Int, Bool, [Waiter]) in
            state.nextID += 1
            let deadline = state.now.advanced(by: delay)
            guard deadline > state.now else { return (state.nextID, true, []) }
            state.timers.append(Timer(id: state.nextID, deadline: deadline, fire: fire))
            let pending = state.timers.count
            let ready = state.timerWaiters.filter { $0.count <= pending }
            state.timerWaiters.removeAll { $0.count <= pending }
            return (state.nextID, false, ready)
        }
        if firesNow { fire() }
        for waiter in ready { waiter.continuation.resume() }
        return id
    }

    package func cancelTimer(_ id: Int) {
        state.withLock { $0.timers.removeAll { $0.id == id } }
    }
}

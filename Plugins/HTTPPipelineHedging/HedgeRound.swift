import HTTPPipeline

/// One hedged call's events, in the order they happened: attempts ending, the hedge timer firing,
/// the caller being cancelled. The attempts (child tasks) and the timer (on the scheduler's
/// thread or the clock's) deliver; the calling task waits for each in turn.
final class HedgeRound: Sendable {
    enum Event: Sendable {
        /// Attempt `number` ended in `result`.
        case ended(number: Int, result: Result<HTTPResponse, any Error>)
        /// The hedge delay passed.
        case timerFired
        /// The calling task was cancelled.
        case cancelled
    }

    private struct State: Sendable {
        var events: [Event] = []
        var waiting: UnsafeContinuation<Event, Never>?
    }

    private let state = Locked(State())

    /// Hands `event` to the waiting caller, or queues it for the next wait.
    func deliver(_ event: Event) {
        let waiting = state.withLock { state -> UnsafeContinuation<Event, Never>? in
            guard let waiting = state.waiting else {
                state.events.append(event)
                return nil
            }
            state.waiting = nil
            return waiting
        }
        waiting?.resume(returning: event)
    }

    /// The next event if one is queued, without waiting.
    func poll() -> Event? {
        state.withLock { state in state.events.isEmpty ? nil : state.events.removeFirst() }
    }

    /// The next event; the caller's cancellation is one.
    func next() async -> Event {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Event, Never>) in
                let ready = state.withLock { state -> Event? in
                    guard state.events.isEmpty else { return state.events.removeFirst() }
                    state.waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            deliver(.cancelled)
        }
    }
}

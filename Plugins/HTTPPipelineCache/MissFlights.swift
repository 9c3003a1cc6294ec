import Foundation
import HTTPPipeline

/// Concurrent misses for one stored resource and identity share one request: the first goes to
/// the network (the leader), the others wait for its outcome, bounded, and then read the store.
final class MissFlights: Sendable {
    /// How a leader's request ended, for its waiters.
    enum Outcome: Sendable {
        /// Its response is stored: read the store.
        case stored
        /// Its response could not be stored (not allowed, too large, cut short, dropped): send
        /// your own request.
        case notStored
        /// It failed before a response: fail the same way.
        case failed(any Error)
    }

    private struct Waiter {
        let id: UUID
        let continuation: CheckedContinuation<Outcome?, Never>
    }

    private let flights = Locked<[String: [Waiter]]>([:])

    /// Whether the caller leads a request for `key` (no other is under way); the leader must
    /// call ``finish(_:with:)`` exactly once.
    func lead(_ key: String) -> Bool {
        flights.withLock { flights in
            guard flights[key] == nil else { return false }
            flights[key] = []
            return true
        }
    }

    /// Ends the flight for `key`: every waiter gets `outcome`.
    func finish(_ key: String, with outcome: Outcome) {
        let waiters = flights.withLock { $0.removeValue(forKey: key) } ?? []
        for waiter in waiters { waiter.continuation.resume(returning: outcome) }
    }

    /// Waits for the leader of `key`'s outcome, at most `limit`; `nil` when it took longer, the
    /// flight already ended, or the caller was cancelled.
    func wait(_ key: String, limit: Duration) async -> Outcome? {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
                let joined = flights.withLock { flights in
                    guard flights[key] != nil, !Task.isCancelled else { return false }
                    flights[key, default: []].append(Waiter(id: id, continuation: continuation))
                    return true
                }
                guard joined else {
                    continuation.resume(returning: nil)
                    return
                }
                Task {
                    try? await Task.sleep(for: limit)
                    self.leave(key, id)
                }
            }
        } onCancel: {
            self.leave(key, id)
        }
    }

    /// A waiter leaves without the outcome (its time is up, or it was cancelled).
    private func leave(_ key: String, _ id: UUID) {
        let waiter = flights.withLock { flights -> Waiter? in
            guard let index = flights[key]?.firstIndex(where: { $0.id == id }) else { return nil }
            return flights[key]?.remove(at: index)
        }
        waiter?.continuation.resume(returning: nil)
    }
}

/// Calls its closure once: when told, or when dropped untold (a body its caller never finished).
final class OnceSignal: Sendable {
    private let action: Locked<(@Sendable (Bool) -> Void)?>

    /// - Parameter action: Called with `true` from ``fire(_:)``'s `stored`, `false` when dropped.
    init(_ action: @escaping @Sendable (Bool) -> Void) {
        self.action = Locked(action)
    }

    func fire(_ stored: Bool) {
        let action = self.action.withLock { action in
            defer { action = nil }
            return action
        }
        action?(stored)
    }

    deinit { fire(false) }
}

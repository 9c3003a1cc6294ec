import Dispatch
import Foundation

/// A timer that ``DeadlineScheduler`` keeps in its heap: a deadline on `ContinuousClock`, and
/// what to do when it passes.
///
/// `@unchecked Sendable`, and why that is safe: `deadline` is set once before the timer is
/// handed to the scheduler and only read afterwards; `heapIndex` is read and written only by
/// `DeadlineScheduler` while it holds its lock (its `Locked` state), which orders every access.
package class ScheduledDeadline: @unchecked Sendable {
    /// A fixed instant, read once: the deadline before the timer is armed (reading the clock for
    /// every timer made would cost the happy path a clock read).
    private static let origin = ContinuousClock.now

    /// When the timer fires.
    var deadline = ScheduledDeadline.origin
    /// Where the timer sits in the scheduler's heap, or -1 when it is in none.
    var heapIndex = -1

    init() {}

    /// Called once on the scheduler's thread when the deadline passes, unless the timer was
    /// cancelled first. Keep it short: it runs before later timers fire.
    package func fire() {}
}

/// A timer that runs a closure when it fires: a transport's backstop for a request's deadline.
///
/// `@unchecked Sendable` as its superclass is; `action` is set once, before it is armed.
package final class DeadlineAction: ScheduledDeadline, @unchecked Sendable {
    private let action: @Sendable () -> Void

    /// Arms a timer on the shared scheduler that runs `action` on the scheduler's thread `delay`
    /// from now, unless ``disarm()`` comes first.
    ///
    /// - Parameters:
    ///   - delay: How long from now.
    ///   - action: What to do; keep it short.
    package init(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
        self.action = action
        super.init()
        DeadlineScheduler.shared.schedule(self, after: delay)
    }

    package override func fire() { action() }

    /// Disarms the timer if it has not fired.
    package func disarm() { DeadlineScheduler.shared.cancel(self) }
}

/// The shared timer of every race on `ContinuousClock`: one thread and a heap of deadlines.
///
/// Arming a timer is a lock and a heap insertion; cancelling it is a lock and a removal, and
/// releases the timer at once (a cancelled `Task.sleep` on Linux holds ~720 B until its deadline,
/// so 100,000 calls under a 30 s timeout would hold ~70 MB). The thread sleeps until the earliest
/// deadline and is woken only when a new timer is due before the one it sleeps towards, so calls
/// that arm and cancel a timer in turn do not wake it at all.
package final class DeadlineScheduler: Sendable {
    fileprivate struct State {
        var heap: [ScheduledDeadline] = []
        /// The deadline the thread sleeps towards; `nil` while it sleeps with nothing to wait for
        /// (or has not started).
        var wakeAt: ContinuousClock.Instant?
        var started = false
    }

    /// The one scheduler every race on `ContinuousClock` shares.
    package static let shared = DeadlineScheduler()

    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Arms `timer` to fire `delay` from now.
    ///
    /// - Parameters:
    ///   - timer: The timer, in no heap.
    ///   - delay: How long from now.
    func schedule(_ timer: ScheduledDeadline, after delay: Duration) {
        timer.deadline = ContinuousClock.now.advanced(by: delay)
        let (start, signal) = state.withLock { state -> (Bool, Bool) in
            state.push(timer)
            let start = !state.started
            state.started = true
            guard timer.heapIndex == 0, state.wakeAt.map({ timer.deadline < $0 }) ?? true else {
                return (start, false)
            }
            state.wakeAt = timer.deadline
            return (start, !start)
        }
        if start {
            let thread = Thread { [self] in
                // Named by the kernel's own means: Foundation's `Thread.name` never reaches it on
                // Linux, and the thread would show the name of whichever pool thread started it.
                nameCurrentThread("HTTP deadlines")
                run()
            }
            thread.start()
        } else if signal {
            wake.signal()
        }
    }

    /// Disarms `timer` if it has not fired; it is released from the heap at once.
    ///
    /// - Parameter timer: A timer given to ``schedule(_:after:)``.
    func cancel(_ timer: ScheduledDeadline) {
        state.withLock { state in
            guard timer.heapIndex >= 0 else { return }
            state.remove(at: timer.heapIndex)
        }
    }

    /// The number of armed timers, for tests and the memory check.
    package var armedCount: Int { state.withLock { $0.heap.count } }

    private func run() {
        while true {
            let (due, wait) = state.withLock { state -> ([ScheduledDeadline], Duration?) in
                let now = ContinuousClock.now
                var due: [ScheduledDeadline] = []
                while let first = state.heap.first, first.deadline <= now {
                    state.remove(at: 0)
                    due.append(first)
                }
                state.wakeAt = state.heap.first?.deadline
                return (due, state.wakeAt.map { now.duration(to: $0) })
            }
            for timer in due { timer.fire() }
            guard due.isEmpty else { continue }
            if let wait {
                // At most a second at a time: `DispatchTime` stops while a machine sleeps and
                // `ContinuousClock` does not, so a timer due during sleep fires within a second of
                // waking rather than after the rest of the old wait.
                let nanoseconds = UInt64(min(max(wait.seconds * 1e9, 0), 1e9))
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
            } else {
                wake.wait()
            }
        }
    }
}

extension DeadlineScheduler.State {
    /// Adds `timer` to the heap, earliest deadline first.
    fileprivate mutating func push(_ timer: ScheduledDeadline) {
        timer.heapIndex = heap.count
        heap.append(timer)
        siftUp(heap.count - 1)
    }

    /// Removes the timer at `index` from the heap.
    fileprivate mutating func remove(at index: Int) {
        let removed = heap[index]
        let last = heap.count - 1
        if index != last {
            heap.swapAt(index, last)
            heap[index].heapIndex = index
        }
        heap.removeLast()
        removed.heapIndex = -1
        if heap.isEmpty, heap.capacity > 1_024 { heap = [] }  // gives a burst's storage back
        guard index < heap.count else { return }
        if index > 0, heap[index].deadline < heap[(index - 1) / 2].deadline {
            siftUp(index)
        } else {
            siftDown(index)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            swap(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && heap[right].deadline < heap[left].deadline ? right : left
            guard heap[child].deadline < heap[parent].deadline else { return }
            swap(child, parent)
            parent = child
        }
    }

    private mutating func swap(_ first: Int, _ second: Int) {
        heap.swapAt(first, second)
        heap[first].heapIndex = first
        heap[second].heapIndex = second
    }
}

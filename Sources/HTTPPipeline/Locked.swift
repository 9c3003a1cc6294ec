import Synchronization

/// State shared between tasks and threads, behind a `Mutex`, that the thread sanitizer can see.
///
/// On Linux, `Mutex` from `Synchronization` is built on a futex the thread sanitizer does not
/// intercept, so a `--sanitize=thread` run reports false "Swift access races" on correctly
/// locked state (two threads appending to a `Mutex<[Int]>` are enough). Inside the lock, this
/// type tells the sanitizer about the lock through its public annotations (`__tsan_acquire`
/// after locking, `__tsan_release` before unlocking, both on this object's address), which is
/// exactly the happens-before edge the lock creates. Without the sanitizer the annotations are
/// absent and the cost is one `nil` check.
///
/// Every target of this package keeps shared mutable state in a `Locked` (or an actor), so users
/// who run their own tests under the thread sanitizer see only real races.
package final class Locked<State: Sendable>: Sendable {
    private let mutex: Mutex<State>

    /// Creates the lock around an initial state.
    ///
    /// - Parameter initial: The state before any access.
    package init(_ initial: State) {
        mutex = Mutex(initial)
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// - Parameter body: Reads or changes the state; keep it short and never `await` in it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let address = Unmanaged.passUnretained(self).toOpaque()
        return try mutex.withLock { state throws(Failure) -> Result in
            ThreadSanitizer.acquire?(address)
            defer { ThreadSanitizer.release?(address) }
            return try body(&state)
        }
    }

    /// A copy of the state.
    package var value: State {
        withLock { $0 }
    }
}

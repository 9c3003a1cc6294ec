#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// State shared between tasks and threads, behind a POSIX mutex.
///
/// Not `Mutex` from `Synchronization`, for two reasons on Linux: it is built on a futex
/// the thread sanitizer does not intercept, so a `--sanitize=thread` run reported false "Swift
/// access races" on correctly locked state; and it asks the kernel for the thread's ID (a
/// `gettid` system call) on every lock and unlock. A `pthread_mutex_t` is intercepted by the
/// sanitizer, so users who run their own tests under it see only real races, and an uncontended
/// lock takes no system call.
///
/// Every target of this package keeps shared mutable state in a `Locked` (or an actor).
package final class Locked<State: Sendable>: @unchecked Sendable {
    // Why `@unchecked Sendable` is safe: `state` is read and written only inside `withLock`,
    // between `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`, which this object
    // allocates in `init` and frees in `deinit` (so its address never moves while in use). Every
    // access is therefore serialised, and each unlock happens before the next lock. `State` is
    // `Sendable`, so the values `body` hands in and out may cross threads.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Creates the lock around an initial state.
    ///
    /// - Parameter initial: The state before any access.
    package init(_ initial: State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        state = initial
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// - Parameter body: Reads or changes the state; keep it short, never `await` in it, and never
    ///   take the same lock again inside it (that deadlocks).
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// A copy of the state.
    package var value: State {
        withLock { $0 }
    }
}

import HTTPPipeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LoopbackServer {
    /// Starts the server's threads: one that accepts connections, and one per connection.
    ///
    /// A thread can fail to start (a process or user thread limit, no memory for its stack), and
    /// the server must learn that it did, so it can refuse the connection instead of waiting for
    /// a thread that never runs. Foundation's `Thread.start()` does not report the failure;
    /// ``system`` calls `pthread_create` and does. Tests give the server one that fails on
    /// purpose.
    package struct ThreadStarter: Sendable {
        private let start: @Sendable (_ name: String, _ body: @escaping @Sendable () -> Void) -> Int32

        /// Creates a starter from a function that starts a thread named `name` running `body`.
        ///
        /// - Parameter start: Starts the thread and returns `0`, or returns an error number
        ///   (such as `EAGAIN`) without running `body` at all.
        package init(_ start: @escaping @Sendable (_ name: String, _ body: @escaping @Sendable () -> Void) -> Int32) {
            self.start = start
        }

        /// Starts a detached thread named `name` running `body`.
        ///
        /// - Parameters:
        ///   - name: The thread's name, at most 15 bytes of it kept on Linux.
        ///   - body: What the thread runs; it ends when `body` returns.
        /// - Returns: `0` when the thread started, otherwise the error number, and `body` never runs.
        package func startThread(named name: String, _ body: @escaping @Sendable () -> Void) -> Int32 {
            start(name, body)
        }

        /// Starts real threads with `pthread_create`, detached, named as the kernel shows them.
        package static let system = ThreadStarter { name, body in
            POSIX.startDetachedThread(named: name, body)
        }
    }
}

extension LoopbackServer.POSIX {
    /// What a new thread runs, handed through the one pointer `pthread_create` passes on.
    private final class ThreadEntry: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Starts a detached thread named `name` running `body`.
    ///
    /// - Returns: `0`, or the error number `pthread_create` returned (`EAGAIN` at a thread limit).
    static func startDetachedThread(named name: String, _ body: @escaping @Sendable () -> Void) -> Int32 {
        let entry = Unmanaged.passRetained(ThreadEntry(name: name, body: body))
        let result = createDetachedThread(entry.toOpaque())
        if result != 0 {
            // The thread never ran, so the entry it would have taken over is released here.
            entry.release()
        }
        return result
    }

    /// The function every thread starts in: it takes over the entry retained for it.
    #if canImport(Glibc)
    private static let threadMain: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = {
        runThreadEntry($0)
        return nil
    }
    #else
    private static let threadMain: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = {
        runThreadEntry($0)
        return nil
    }
    #endif

    /// Creates a thread that runs ``threadMain`` with `entry` and detaches it.
    private static func createDetachedThread(_ entry: UnsafeMutableRawPointer) -> Int32 {
        #if canImport(Glibc)
        var thread: pthread_t = 0
        let result = pthread_create(&thread, nil, threadMain, entry)
        if result == 0 { _ = pthread_detach(thread) }
        #else
        var thread: pthread_t?
        let result = pthread_create(&thread, nil, threadMain, entry)
        if result == 0, let thread { _ = pthread_detach(thread) }
        #endif
        return result
    }

    /// The start of every thread ``startDetachedThread(named:_:)`` creates: takes over the entry
    /// retained for it, names the thread and runs the body.
    private static func runThreadEntry(_ context: UnsafeMutableRawPointer?) {
        guard let context else { return }
        let entry = Unmanaged<ThreadEntry>.fromOpaque(context).takeRetainedValue()
        nameCurrentThread(entry.name)
        entry.body()
    }
}

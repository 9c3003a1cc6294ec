import CHTTPPipelineCurl
import Foundation
import HTTPPipeline
import Synchronization

/// One libcurl multi handle and the one thread that drives it.
///
/// Every libcurl call on the multi handle and its easy handles happens on that thread
/// (``CurlEventLoop``); other threads only queue a ``Command`` and, when the thread sleeps, wake
/// it with `curl_multi_wakeup`, the one multi call libcurl documents as safe from any thread.
/// The thread sleeps in `curl_multi_poll`, so it costs nothing while idle, and an async caller
/// never blocks a thread of the cooperative pool.
///
/// The engine is also a `TaskExecutor`: a task that prefers it (`withTaskExecutorPreference`,
/// through ``CurlTransport/taskExecutor``) runs on this thread between polls, so a transfer that
/// ends resumes its caller here, without waking a thread of the pool, and the caller's next
/// request is queued without waking this one.
final class CurlEngine: TaskExecutor, Sendable {
    /// A direction of a paused transfer.
    enum Direction: Sendable {
        case receive
        case send
    }

    enum Command: Sendable {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer, Direction)
        /// A job of a task that prefers the engine as its executor.
        case run(UnownedJob)
        case shutdown
    }

    /// The multi handle, for `curl_multi_wakeup`.
    struct Multi: @unchecked Sendable {
        // Why `@unchecked Sendable` is safe: the pointer is only used from other threads for
        // `curl_multi_wakeup`, which libcurl documents as callable from any thread; every other
        // call on the handle is made on the engine's own thread, and the handle is cleaned up
        // there, after the last command (`shutdown`) was taken.
        let handle: UnsafeMutableRawPointer
    }

    /// The commands not taken yet, and whether the thread has ended (the multi handle is gone).
    private struct Inbox: Sendable {
        var commands: [Command] = []
        var ended = false
    }

    let configuration: CurlTransport.Configuration
    let multi: Multi
    private let inbox = Locked(Inbox())
    /// How many commands are queued: read without the lock by the thread while it polls
    /// without sleeping. Changed only under the inbox's lock.
    private let queued = Atomic<Int>(0)
    /// Whether the thread is about to sleep, or sleeps, in `curl_multi_poll`: only then does a
    /// command need `curl_multi_wakeup` (a system call on each side). The thread sets it, then
    /// looks at ``queued``; a poster raises ``queued``, then looks at this: with both in
    /// sequentially consistent order, at least one of them sees the other, so a command is never
    /// left waiting for a thread that went to sleep.
    private let sleeping = Atomic<Bool>(false)
    private let sleptThroughCommands = Atomic<Int>(0)
    /// When the oldest command not taken yet was queued (uptime nanoseconds): a poll that ran
    /// its course is a lost wake-up only if a command waited through most of it.
    private let oldestQueuedAt = Atomic<UInt64>(0)
    #if os(Linux)
    /// The engine's thread, once it runs: for ``threadCPUTime``.
    private let threadID = Locked<pthread_t?>(nil)

    /// How much CPU time the engine's thread has used, or `nil` before it runs and once it ends:
    /// tests check with it that the thread sleeps when there is nothing to do. Read it only while
    /// a transport keeps the engine alive (a thread that has ended has no clock to read).
    var threadCPUTime: Duration? {
        guard let thread = threadID.value else { return nil }
        var clock = clockid_t()
        var time = timespec()
        guard pthread_getcpuclockid(thread, &clock) == 0, clock_gettime(clock, &time) == 0 else { return nil }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
    #endif

    /// Starts the engine's thread. Call only once ``CurlLibrary/bound`` succeeded.
    init(configuration: CurlTransport.Configuration) {
        self.configuration = configuration
        // curl_multi_init fails only when memory runs out.
        guard let handle = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        multi = Multi(handle: handle)
        let thread = Thread { [self] in
            // Named from inside: on Linux a name given before `start()` never reaches the kernel.
            nameCurrentThread(Self.threadName)
            #if os(Linux)
            threadID.withLock { $0 = pthread_self() }
            #endif
            CurlEventLoop(engine: self).run()
        }
        thread.start()
    }

    /// The engine thread's name, as debuggers, `top -H` and `/proc/self/task/*/comm` show it
    /// (Linux keeps 15 bytes of a name: this one fits).
    static let threadName = "HTTP curl loop"

    func add(_ transfer: CurlTransfer) { post(.add(transfer)) }
    func cancel(_ transfer: CurlTransfer) { post(.cancel(transfer)) }
    func resume(_ transfer: CurlTransfer, _ direction: Direction) { post(.resume(transfer, direction)) }
    func shutdown() { post(.shutdown) }

    /// Runs a job of a task that prefers this executor on the engine's thread, after the
    /// commands queued before it; once the thread has ended, on the global concurrent executor.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !post(.run(job)) { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Queues a command; `false` when the thread has ended and nothing will take it.
    @discardableResult
    private func post(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            // After the thread ended, a late command (a body dropped, an upload's last chunk)
            // has nothing to act on. The wake-up goes under the lock, so the thread cannot clean
            // the multi handle up between the check and the call.
            guard !inbox.ended else { return false }
            inbox.commands.append(command)
            if inbox.commands.count == 1 {
                oldestQueuedAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            }
            queued.add(1, ordering: .sequentiallyConsistent)
            if sleeping.load(ordering: .sequentiallyConsistent) { curl_multi_wakeup(multi.handle) }
            return true
        }
    }

    /// Whether commands wait to be taken (engine thread, without the lock).
    var hasCommands: Bool { queued.load(ordering: .sequentiallyConsistent) > 0 }

    /// Sleeps in `curl_multi_poll` until a socket is ready, a command comes or `milliseconds`
    /// pass (engine thread); returns at once when a command came first.
    func sleep(milliseconds: Int) {
        sleeping.store(true, ordering: .sequentiallyConsistent)
        defer { sleeping.store(false, ordering: .sequentiallyConsistent) }
        guard !hasCommands else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        curl_multi_poll(multi.handle, nil, 0, Int32(milliseconds), nil)
        // A command queued while the thread slept ends the poll at once; one that waited 100 ms
        // or more through a long poll that ran its whole course was never woken for. (One
        // queued as the poll ran out on its own is not: a starved caller can post it just then.)
        let now = DispatchTime.now().uptimeNanoseconds
        if milliseconds >= 100, hasCommands, now &- start >= UInt64(milliseconds) * 1_000_000,
            now &- oldestQueuedAt.load(ordering: .relaxed) >= 100_000_000
        {
            sleptThroughCommands.add(1, ordering: .relaxed)
        }
    }

    /// How many times the thread slept a whole poll of 100 ms or more while a command waited:
    /// a lost wake-up. Tests check that it stays 0.
    var lostWakeUps: Int { sleptThroughCommands.load(ordering: .relaxed) }

    /// The commands queued since the last call (engine thread).
    func takeCommands(into commands: inout [Command]) {
        guard hasCommands else { return }
        inbox.withLock {
            swap(&$0.commands, &commands)
            queued.store(0, ordering: .sequentiallyConsistent)
        }
    }

    /// The thread is ending (engine thread): no command is taken after this. The jobs still
    /// queued run on the global concurrent executor instead: a task is never left unresumed.
    func end() {
        let left = inbox.withLock { inbox -> [Command] in
            inbox.ended = true
            defer { inbox.commands = [] }
            return inbox.commands
        }
        for case .run(let job) in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        #if os(Linux)
        threadID.withLock { $0 = nil }
        #endif
    }
}

/// Keeps an engine while any copy of its transport lives; the last one gone shuts it down
/// (transfers still running are cancelled, the thread ends).
final class CurlEngineOwner: Sendable {
    /// The engine of every transport made with the default configuration; it lives as long as
    /// the process.
    static let shared = CurlEngineOwner(configuration: .default)

    let configuration: CurlTransport.Configuration
    /// The engine, or why there is none: the libcurl runtime could not be bound.
    let engine: Result<CurlEngine, CurlTransportError>

    init(configuration: CurlTransport.Configuration) {
        self.configuration = configuration
        engine = CurlLibrary.bound.map { CurlEngine(configuration: configuration) }
    }

    deinit {
        if case .success(let engine) = engine { engine.shutdown() }
    }
}

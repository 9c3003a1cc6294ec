import CHTTPPipelineCurl
import Foundation
import HTTPPipeline

/// One libcurl multi handle and the one thread that drives it.
///
/// Every libcurl call on the multi handle and its easy handles happens on that thread
/// (``CurlEventLoop``); other threads only queue a ``Command`` and wake it with
/// `curl_multi_wakeup`, the one multi call libcurl documents as safe from any thread. The
/// thread waits in `curl_multi_poll`, so it costs nothing while idle, and an async caller never
/// blocks a thread of the cooperative pool.
final class CurlEngine: Sendable {
    /// A direction of a paused transfer.
    enum Direction: Sendable {
        case receive
        case send
    }

    enum Command: Sendable {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer, Direction)
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

    /// `curl_global_init` once per process, before the first handle. libcurl counts its calls
    /// (FoundationNetworking makes its own), and this one is never undone.
    private static let globalInit: Int = Int(curl_global_init(Int(CHTTPPipelineCurl_GLOBAL_ALL)).rawValue)

    /// The commands not taken yet, and whether the thread has ended (the multi handle is gone).
    private struct Inbox: Sendable {
        var commands: [Command] = []
        var ended = false
    }

    let configuration: CurlTransport.Configuration
    let multi: Multi
    private let inbox = Locked(Inbox())

    init(configuration: CurlTransport.Configuration) {
        _ = Self.globalInit
        self.configuration = configuration
        // curl_multi_init fails only when memory runs out.
        guard let handle = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        multi = Multi(handle: handle)
        let thread = Thread { [self] in
            CurlEventLoop(engine: self).run()
        }
        thread.name = "HTTPPipelineCurl"
        thread.start()
    }

    func add(_ transfer: CurlTransfer) { post(.add(transfer)) }
    func cancel(_ transfer: CurlTransfer) { post(.cancel(transfer)) }
    func resume(_ transfer: CurlTransfer, _ direction: Direction) { post(.resume(transfer, direction)) }
    func shutdown() { post(.shutdown) }

    private func post(_ command: Command) {
        inbox.withLock { inbox in
            // After the thread ended, a late command (a body dropped, an upload's last chunk)
            // has nothing to act on. The wake-up goes under the lock, so the thread cannot clean
            // the multi handle up between the check and the call.
            guard !inbox.ended else { return }
            inbox.commands.append(command)
            curl_multi_wakeup(multi.handle)
        }
    }

    /// The commands queued since the last call (engine thread).
    func takeCommands(into commands: inout [Command]) {
        inbox.withLock { swap(&$0.commands, &commands) }
    }

    /// The thread is ending (engine thread): no command is taken after this.
    func end() {
        inbox.withLock { $0.ended = true }
    }
}

/// Keeps an engine while any copy of its transport lives; the last one gone shuts it down
/// (transfers still running are cancelled, the thread ends).
final class CurlEngineOwner: Sendable {
    /// The engine of every transport made with the default configuration; it lives as long as
    /// the process.
    static let shared = CurlEngineOwner(configuration: .default)

    let engine: CurlEngine

    init(configuration: CurlTransport.Configuration) {
        engine = CurlEngine(configuration: configuration)
    }

    deinit {
        engine.shutdown()
    }
}

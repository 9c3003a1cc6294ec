import Dispatch
import Foundation
import HTTPPipeline

extension LoopbackServer {
    /// A route's identity: method and path, compared exactly.
    struct RouteKey: Hashable {
        var method: String
        var path: String
    }

    /// Computes a response for a request.
    typealias Handler = @Sendable (RecordedRequest) -> Response

    /// Where the server is in its life.
    enum Phase {
        case idle, running, stopping, stopped
    }

    /// Everything mutable, guarded by ``Core/state``.
    struct State {
        var phase = Phase.idle
        var port = 0
        var routes: [RouteKey: Handler] = [:]
        var requests: [RecordedRequest] = []
        var connectionsAccepted = 0
        /// Connection sockets being served; a worker removes its socket here before closing it,
        /// so `stop()` never shuts down a descriptor number that was already reused.
        var openConnections: Set<Int32> = []
        var wakePipe: (read: Int32, write: Int32)?
    }

    /// The shared heart of a server: its state, and the accept and connection threads.
    ///
    /// Every thread retains the core rather than the ``LoopbackServer``, so dropping the last
    /// reference to the server runs its `deinit`, which stops the core.
    final class Core: Sendable {
        /// How long clients may take; see ``LoopbackServer/Timeouts``.
        let timeouts: Timeouts
        /// Starts the accept thread and the connection threads.
        let threadStarter: ThreadStarter
        /// The state, behind a lock the thread sanitizer can see.
        let state = Locked(State())
        /// Entered for the accept thread and every connection thread; `stop()` waits on it.
        let workers = DispatchGroup()

        init(timeouts: Timeouts, threadStarter: ThreadStarter) {
            self.timeouts = timeouts
            self.threadStarter = threadStarter
        }

        /// Binds the listening socket and starts the accept thread; see ``LoopbackServer/start()``.
        func start() throws(LoopbackServer.Error) {
            try state.withLock { state throws(LoopbackServer.Error) in
                switch state.phase {
                case .idle: break
                case .running: throw .alreadyStarted
                case .stopping, .stopped: throw .alreadyStopped
                }
                let listener = try POSIX.makeListeningSocket()
                let wakePipe: (read: Int32, write: Int32)
                do throws(LoopbackServer.Error) {
                    wakePipe = try POSIX.makeWakePipe()
                } catch {
                    POSIX.closeDescriptor(listener.fd)
                    throw error
                }
                let started = spawn(named: "lo:\(listener.port) accept") { core in
                    core.acceptLoop(listenFD: listener.fd, port: listener.port, wakeFD: wakePipe.read)
                }
                guard started == 0 else {
                    POSIX.closeDescriptor(listener.fd)
                    POSIX.closeDescriptor(wakePipe.read)
                    POSIX.closeDescriptor(wakePipe.write)
                    throw .systemCallFailed(call: "pthread_create", errno: started)
                }
                // The accept thread touches the state only under this lock, so it sees all of it.
                state.port = listener.port
                state.wakePipe = wakePipe
                state.phase = .running
            }
        }

        /// Wakes every thread, shuts every connection down and waits for all threads to finish;
        /// only the first call closes the wake pipe. See ``LoopbackServer/stop()``.
        func stop() {
            let pipeToClose = state.withLock { state -> (read: Int32, write: Int32)? in
                guard state.phase == .running, let wakePipe = state.wakePipe else { return nil }
                state.phase = .stopping
                POSIX.wake(wakePipe.write)
                for fd in state.openConnections {
                    POSIX.shutdownBoth(fd)
                }
                return wakePipe
            }
            workers.wait()
            guard let pipeToClose else { return }
            POSIX.closeDescriptor(pipeToClose.read)
            POSIX.closeDescriptor(pipeToClose.write)
            state.withLock { state in
                state.wakePipe = nil
                state.phase = .stopped
            }
        }

        /// Runs `body` on a new thread that counts as a worker until `body` returns.
        ///
        /// Names stay within the 15 characters Linux keeps: `lo:<port> accept`, `lo:<port> conn`.
        ///
        /// - Returns: `0`, or the error number when the thread could not start; then `body` never
        ///   runs and the thread does not count, so `stop()` does not wait for it.
        private func spawn(named name: String, _ body: @escaping @Sendable (Core) -> Void) -> Int32 {
            workers.enter()
            let result = threadStarter.startThread(named: name) { [self] in
                body(self)
                workers.leave()
            }
            if result != 0 {
                workers.leave()
            }
            return result
        }

        /// Accepts connections until the wake pipe fires, then closes the listening socket.
        private func acceptLoop(listenFD: Int32, port: Int, wakeFD: Int32) {
            defer { POSIX.closeDescriptor(listenFD) }
            while POSIX.wait(for: listenFD, wake: wakeFD, timeout: nil) == .readable {
                guard let fd = POSIX.accept(from: listenFD) else {
                    // EAGAIN after a client gave up, or EMFILE: pause briefly instead of spinning.
                    if POSIX.wait(for: -1, wake: wakeFD, timeout: .milliseconds(10)) == .woken {
                        return
                    }
                    continue
                }
                let accepted = state.withLock { state in
                    guard state.phase == .running else { return false }
                    state.connectionsAccepted += 1
                    state.openConnections.insert(fd)
                    return true
                }
                guard accepted else {
                    POSIX.closeDescriptor(fd)
                    return
                }
                let started = spawn(named: "lo:\(port) conn") { core in
                    core.serveConnection(fd, wakeFD: wakeFD)
                    core.state.withLock { _ = $0.openConnections.remove(fd) }
                    POSIX.closeDescriptor(fd)
                }
                if started != 0 {
                    refuse(fd)
                }
            }
        }

        /// Closes a connection no thread will serve (a thread limit was reached), so its client
        /// sees a closed connection at once instead of waiting for an answer that never comes.
        private func refuse(_ fd: Int32) {
            state.withLock { state in
                state.openConnections.remove(fd)
                state.connectionsAccepted -= 1
            }
            POSIX.closeDescriptor(fd)
        }

        /// Records a complete request and finds the handler for it; a `HEAD` request with no
        /// route of its own uses the `GET` route of its path.
        func receive(_ request: RecordedRequest) -> Handler? {
            state.withLock { state in
                state.requests.append(request)
                if let handler = state.routes[RouteKey(method: request.method, path: request.path)] {
                    return handler
                }
                guard request.method == "HEAD" else { return nil }
                return state.routes[RouteKey(method: "GET", path: request.path)]
            }
        }
    }
}

import CHTTPPipelineCurl
import Foundation
import HTTPPipeline

/// The engine's thread: takes commands, drives libcurl's multi interface, and finishes
/// transfers. Everything here runs on that one thread, so none of it is locked.
final class CurlEventLoop {
    private let engine: CurlEngine
    private let multi: UnsafeMutableRawPointer
    /// Transfers in the multi handle, by transfer and by easy handle.
    private var active: [ObjectIdentifier: CurlEasy] = [:]
    private var byHandle: [UnsafeMutableRawPointer: CurlEasy] = [:]
    /// Easy handles between transfers, reused (their TLS sessions and DNS entries with them).
    private var idle: [CurlEasy] = []
    private var commands: [Command] = []
    private var stopping = false

    typealias Command = CurlEngine.Command

    /// The most idle easy handles kept.
    private static let idleLimit = 64

    init(engine: CurlEngine) {
        self.engine = engine
        multi = engine.multi.handle
        let configuration = engine.configuration
        let perHost = max(configuration.maximumConnectionsPerHost, 1)
        CHTTPPipelineCurl_multiSetLong(multi, CURLMOPT_MAX_HOST_CONNECTIONS, perHost)
        CHTTPPipelineCurl_multiSetLong(multi, CURLMOPT_MAXCONNECTS, max(perHost * 4, 16))
        CHTTPPipelineCurl_multiSetLong(
            multi, CURLMOPT_PIPELINING, configuration.allowsHTTP2 ? Int(CHTTPPipelineCurl_PIPE_MULTIPLEX) : 0)
    }

    func run() {
        var running: Int32 = 0
        var spin = CurlSpin(window: engine.configuration.spinBeforeSleeping)
        while true {
            engine.takeCommands(into: &commands)
            var worked = !commands.isEmpty
            for command in commands { handle(command) }
            commands.removeAll(keepingCapacity: true)
            if stopping { break }
            curl_multi_perform(multi, &running)
            if finishDone() { worked = true }
            // 0: something is due now. -1: nothing is due; a command still wakes the poll at once.
            var timeout = dueIn()
            guard timeout != 0 else { continue }
            if worked, spin.isOn {
                // A request just went out or one just ended: its answer, or the caller's next
                // request, often comes within microseconds; waiting for it here, until libcurl's
                // next timer at the latest, saves waking the thread.
                if spin.poll(multi, engine: engine, dueInMilliseconds: timeout) { continue }
                timeout = dueIn()
                guard timeout != 0 else { continue }
            }
            engine.sleep(milliseconds: timeout)
        }
        engine.end()
        for easy in active.values { remove(easy, ending: .failure(CancellationError())) }
        for easy in idle { easy.cleanup() }
        idle.removeAll()
        curl_multi_cleanup(multi)
    }

    private func handle(_ command: Command) {
        switch command {
        case .add(let transfer):
            guard !transfer.hasEnded else { return }
            // Cancelled before it got here (the cancel command came first, and found nothing).
            guard !transfer.isCancelled else { return transfer.complete(.failure(CancellationError())) }
            let easy = idle.popLast() ?? CurlEasy()
            if let failure = easy.prepare(for: transfer, configuration: engine.configuration) {
                easy.reset()
                idle.append(easy)
                transfer.complete(.failure(failure))
                return
            }
            active[ObjectIdentifier(transfer)] = easy
            byHandle[easy.handle] = easy
            curl_multi_add_handle(multi, easy.handle)
        case .cancel(let transfer):
            guard let easy = active[ObjectIdentifier(transfer)] else { return }
            remove(easy, ending: .failure(CancellationError()))
        case .resume(let transfer, let direction):
            active[ObjectIdentifier(transfer)]?.resume(direction)
        case .run(let job):
            job.runSynchronously(on: engine.asUnownedTaskExecutor())
        case .shutdown:
            stopping = true
        }
    }

    /// In how many milliseconds libcurl's next timer is due: 0 for now, at most 1,000 (when
    /// nothing is due, the thread still looks at its transfers once a second).
    private func dueIn() -> Int {
        var timeout = 0
        curl_multi_timeout(multi, &timeout)
        return timeout < 0 || timeout > 1_000 ? 1_000 : timeout
    }

    /// Finishes the transfers libcurl reports done; returns whether there were any.
    private func finishDone() -> Bool {
        var queued: Int32 = 0
        var finished = false
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let easy = byHandle[handle]
            else { continue }
            let code = CHTTPPipelineCurl_result(message)
            remove(easy, ending: code == CURLE_OK ? .success(()) : .failure(easy.error(for: code)))
            finished = true
        }
        return finished
    }

    /// Tells `easy`'s transfer how it ended, takes the handle out of the multi handle, and keeps
    /// it for the next transfer. The transfer learns first: its caller goes on while the handle
    /// is put away.
    private func remove(_ easy: CurlEasy, ending end: Result<Void, any Error>) {
        byHandle[easy.handle] = nil
        if let transfer = easy.transfer {
            active[ObjectIdentifier(transfer)] = nil
            let metrics = easy.metrics()
            transfer.record.update { $0 = metrics }
            transfer.complete(end, head: easy.bufferedHead())
        }
        curl_multi_remove_handle(multi, easy.handle)
        easy.reset()
        if idle.count < Self.idleLimit { idle.append(easy) } else { easy.cleanup() }
    }
}

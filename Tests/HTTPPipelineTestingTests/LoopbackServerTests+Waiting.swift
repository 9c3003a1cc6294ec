import Dispatch
import Foundation
import HTTPPipelineTesting
import Testing

/// Calls `server.stop()` on a thread of its own and waits at most `limit` for it to return.
///
/// - Returns: Whether it returned in time. A stop that hangs is left behind on its thread, so a
///   test can report the hang instead of hanging itself.
func stopReturns(_ server: LoopbackServer, within limit: Duration) -> Bool {
    let returned = DispatchSemaphore(value: 0)
    Thread {
        server.stop()
        returned.signal()
    }.start()
    let milliseconds = Int(limit.components.seconds * 1_000 + limit.components.attoseconds / 1_000_000_000_000_000)
    return returned.wait(timeout: .now() + .milliseconds(milliseconds)) == .success
}

/// Names of this process's threads that belong to the server on `port` (Linux only: read from
/// `/proc/self/task`).
func serverThreadNames(port: Int) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap { task in
        let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
        return name.flatMap { $0.hasPrefix("lo:\(port) ") ? $0 : nil }
    }
}

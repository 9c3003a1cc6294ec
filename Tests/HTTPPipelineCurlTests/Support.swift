import Foundation
import HTTPPipelineTesting

/// Bytes that say where they are: byte `i` is `i % 251`, so a lost, doubled or moved chunk shows.
func pattern(_ count: Int) -> Data {
    Data((0..<count).map { UInt8($0 % 251) })
}

/// Waits (bounded, 60 s) until `condition` holds, polling the real clock: for an effect on the
/// server's or the engine's thread that follows a client action.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    // A minute at most: only a failing check waits it out, and a starved sanitizer run on two
    // cores was seen to need more than the ten seconds this once allowed.
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(60))
    while clock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

extension LoopbackServer {
    /// A server, started, with long timeouts: on a loaded machine (the whole suite, or the
    /// sanitizer, on two cores) a paused transfer or a starved upload may stay silent for
    /// seconds, which is not what these tests are about.
    static func started() throws -> LoopbackServer {
        let server = LoopbackServer(timeouts: .init(idle: .seconds(120), request: .seconds(120)))
        try server.start()
        return server
    }

    /// The URL of `path` on the server.
    func url(_ path: String) -> URL {
        baseURL.appendingPathComponent(path)
    }
}

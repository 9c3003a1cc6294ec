import Foundation
import HTTPPipelineTesting

/// Bytes that say where they are: byte `i` is `i % 251`, so a lost, doubled or moved chunk shows.
func pattern(_ count: Int) -> Data {
    Data((0..<count).map { UInt8($0 % 251) })
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

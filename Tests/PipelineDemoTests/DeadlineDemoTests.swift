import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

@testable import pipeline_demo

/// The demo's deadline section: a 5 s route cut by a 1 s deadline, against a loopback server.
@Suite struct DeadlineDemoTests {
    @Test("The deadline section cuts a 5 s call at 1 s with the total deadline's error")
    func aSlowCallIsCutAtTheDeadline() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }

        let result = try await showDeadline(server: server, transport: URLSessionTransport())

        #expect(result.error == HTTPTimeoutError(.total, after: .seconds(1)))
        #expect(result.elapsed >= .seconds(1))
        #expect(result.requests == 1)
        // How soon after 1 s the call returns depends on how busy the machine's threads are (the
        // whole suite at once on two cores delayed it by seconds): the interop suite holds the
        // real-time bound (within 1.1 s), on a machine running that suite alone.
    }
}

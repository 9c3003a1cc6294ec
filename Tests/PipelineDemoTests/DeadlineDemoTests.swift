import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@testable import PipelineDemo

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
        #expect(result.elapsed < .seconds(4), "cut at the deadline, long before the 5 s answer")
        #expect(result.requests == 1)
    }
}

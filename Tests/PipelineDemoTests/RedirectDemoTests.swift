import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@testable import PipelineDemo

/// The demo's redirect section: a cover moved to another origin, against two loopback servers.
@Suite struct RedirectDemoTests {
    @Test("The redirect section follows one hop, logs both, and the other origin gets no credential or cookie")
    func theOtherOriginGetsNoCredentialOrCookie() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }

        let result = try await showRedirect(server: server, transport: URLSessionTransport())

        #expect(result.status == 200)
        #expect(result.hops.map(\.status) == [302])
        #expect(result.records == 2, "one record per hop")
        #expect(result.credentialsAtFirst == 1)
        #expect(result.credentialsAtOther == 0)
        #expect(result.cookiesAtOther == 0)
    }
}

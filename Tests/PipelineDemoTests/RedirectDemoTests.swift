import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

@testable import pipeline_demo

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The demo's redirect section: a cover moved to another origin, against two loopback servers.
@Suite struct RedirectDemoTests {
    @Test("The redirect section follows one hop, logs both, and the other origin gets no credential or cookie")
    func theOtherOriginGetsNoCredentialOrCookie() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }

        // A cookie jar of its own: the shared one holds cookies other tests' servers set, and a
        // port one of them used can be this test's other origin now (same host and port: the
        // same origin, so those cookies would rightly be sent there).
        let transport = URLSessionTransport(configuration: .ephemeral)
        let result = try await showRedirect(server: server, transport: transport)

        #expect(result.status == 200)
        #expect(result.hops.map(\.status) == [302])
        #expect(result.records == 2, "one record per hop")
        #expect(result.credentialsAtFirst == 1)
        #expect(result.credentialsAtOther == 0)
        #expect(result.cookiesAtOther == 0)
    }
}

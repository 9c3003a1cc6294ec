import Foundation
import HTTPPipeline
import HTTPPipelineURLSession
import TestSupport
import Testing

/// `URLSessionTransport` goes through the proxy its configuration names, as URLSession does: with
/// the default configuration that is the system's proxy on Darwin and, on Linux, the one
/// `http_proxy` and friends name, which FoundationNetworking's libcurl reads and offers no way to
/// turn off. Pinned here so a change in that behaviour is seen; `CurlTransport` ignores the
/// environment unless configured (`CurlProxyEnvironmentTests`).
@Suite struct URLSessionProxyEnvironmentTests {
    #if canImport(FoundationNetworking)
    @Test func onLinuxTheTransportGoesThroughTheProxyTheEnvironmentNames() throws {
        let outcome = try ProxyEnvironmentProbe.run(childTest: "childSendsOneRequestThroughURLSession")

        #expect(outcome.childSent)
        #expect(outcome.proxied == 1)
    }
    #endif

    @Test(.enabled(if: ProxyEnvironmentProbe.isChild, "runs only as the child of the proxy-environment test"))
    func childSendsOneRequestThroughURLSession() async {
        _ = try? await URLSessionTransport().send(HTTPRequest(url: ProxyEnvironmentProbe.target))
        ProxyEnvironmentProbe.childSent()
    }
}

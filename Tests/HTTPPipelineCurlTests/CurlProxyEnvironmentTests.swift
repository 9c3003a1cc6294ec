import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import TestSupport
import Testing

/// `CurlTransport` goes through a proxy only when its configuration says so: the environment's
/// `http_proxy` and friends are ignored by default and honoured with `.environment`.
@Suite struct CurlProxyEnvironmentTests {
    @Test func theDefaultConfigurationSendsNothingThroughTheEnvironmentsProxy() throws {
        let outcome = try ProxyEnvironmentProbe.run(childTest: "childSendsOneRequestWithTheDefaultConfiguration")

        #expect(outcome.childSent)
        #expect(outcome.proxied == 0)
    }

    @Test func aConfigurationThatAsksForTheEnvironmentsProxyUsesIt() throws {
        let outcome = try ProxyEnvironmentProbe.run(childTest: "childSendsOneRequestAskingForTheEnvironmentsProxy")

        #expect(outcome.childSent)
        #expect(outcome.proxied == 1)
    }

    @Test(.enabled(if: ProxyEnvironmentProbe.isChild, "runs only as the child of the proxy-environment tests"))
    func childSendsOneRequestWithTheDefaultConfiguration() async {
        _ = try? await CurlTransport().send(HTTPRequest(url: ProxyEnvironmentProbe.target))
        ProxyEnvironmentProbe.childSent()
    }

    @Test(.enabled(if: ProxyEnvironmentProbe.isChild, "runs only as the child of the proxy-environment tests"))
    func childSendsOneRequestAskingForTheEnvironmentsProxy() async {
        var configuration = CurlTransport.Configuration.default
        configuration.proxy = .environment
        _ = try? await CurlTransport(configuration: configuration).send(HTTPRequest(url: ProxyEnvironmentProbe.target))
        ProxyEnvironmentProbe.childSent()
    }
}

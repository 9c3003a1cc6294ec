import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import Testing

@Suite("CurlTransport errors")
struct CurlErrorTests {
    @Test func aPortNobodyListensOnIsARefusedConnection() async throws {
        let server = try LoopbackServer.started()
        let url = server.url("gone")
        server.stop()
        let error = await #expect(throws: CurlTransportError.self) {
            _ = try await CurlTransport(configuration: .default).send(HTTPRequest(url: url))
        }
        #expect(error?.category == .connectionRefused)
        #expect(error?.code == 7)
        #expect(error?.message.isEmpty == false)
    }

    @Test func aNameThatDoesNotResolveIsADNSFailure() async throws {
        let url = try #require(URL(string: "http://no-such-host.invalid/"))
        let error = await #expect(throws: CurlTransportError.self) {
            _ = try await CurlTransport(configuration: .default).send(HTTPRequest(url: url))
        }
        #expect(error?.category == .dnsFailure)
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "http:///nohost"])
    func aURLThatIsNotHTTPWithAHostIsRefusedBeforeAnythingIsSent(text: String) async throws {
        let url = try #require(URL(string: text))
        await #expect(throws: HTTPTransportError.self) {
            _ = try await CurlTransport(configuration: .default).send(HTTPRequest(url: url))
        }
    }

    /// RFC 9110 §5.5: no control character but tab, the core's one rule (DefaultHeaders applies
    /// the same).
    @Test(arguments: ["a\r\nInjected: yes", "a\u{01}b", "a\u{7F}b", "a\u{00}b"])
    func aFieldValueWithAControlCharacterIsRefusedBeforeAnythingIsSent(value: String) async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        var request = HTTPRequest(url: server.url("x"))
        request.fields["X-Evil"] = value
        await #expect(throws: HTTPTransportError.self) {
            _ = try await CurlTransport(configuration: .default).send(request)
        }
        #expect(server.requests.isEmpty)
    }
}

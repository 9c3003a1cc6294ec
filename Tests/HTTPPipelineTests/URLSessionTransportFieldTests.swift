import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// The one field rule of the core (RFC 9110 §5.5), as `URLSessionTransport` applies it: the same
/// values `CurlTransport` and `DefaultHeaders` refuse, refused before anything is sent.
@Suite struct URLSessionTransportFieldTests {
    @Test(arguments: ["a\r\nInjected: yes", "a\u{01}b", "a\u{7F}b", "a\u{00}b"])
    func aFieldValueWithAControlCharacterIsRefusedBeforeAnythingIsSent(value: String) async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }
        var request = HTTPRequest(url: server.baseURL.appendingPathComponent("x"))
        request.fields["X-Evil"] = value
        await #expect(throws: HTTPTransportError.self) {
            _ = try await URLSessionTransport().send(request)
        }
        #expect(server.requests.isEmpty)
    }

    @Test func aTabAndBytesAboveASCIIAreAllowedInAFieldValue() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }
        var request = HTTPRequest(url: server.baseURL.appendingPathComponent("x"))
        request.fields["X-Fine"] = "a\tb ü"
        let response = try await URLSessionTransport().send(request)
        #expect(response.status == 404 || response.status == 200)
        #expect(server.requests.count == 1)
    }
}

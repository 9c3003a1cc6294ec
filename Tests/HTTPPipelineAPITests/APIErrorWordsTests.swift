import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Transport failures read as words, with the host and never the query.
@Suite struct APIErrorWordsTests {
    /// A loopback port nothing listens on: a server's, once it has stopped.
    static func closedPort() throws -> Int {
        let server = LoopbackServer()
        try server.start()
        let port = server.port
        server.stop()
        return port
    }

    @Test("A refused connection reads as cannotConnectToHost with its host, without the query")
    func refusedConnectionReadsAsWords() async throws {
        let port = try Self.closedPort()
        let base = try #require(URL(string: "http://127.0.0.1:\(port)/v2/"))
        let client = APIClient(baseURL: base, transport: URLSessionTransport())
        let endpoint = Endpoint<EmptyResponse>.get("/books").query("api_key", "SECRET-QUERY")
        do {
            _ = try await client.send(endpoint)
            Issue.record("a closed port answered")
        } catch let error as APIError {
            #expect(error.description == "transport failure: cannotConnectToHost (URLError -1004) to 127.0.0.1:\(port)")
            #expect(!error.description.contains("SECRET"))
        }
    }

    @Test(
        "Every URLError code Foundation names reads as its Swift name",
        arguments: [
            (URLError.Code.timedOut, "timedOut"), (.cannotFindHost, "cannotFindHost"),
            (.networkConnectionLost, "networkConnectionLost"), (.secureConnectionFailed, "secureConnectionFailed"),
            (.serverCertificateUntrusted, "serverCertificateUntrusted"), (.badServerResponse, "badServerResponse"),
        ])
    func urlErrorCodesHaveNames(code: URLError.Code, name: String) {
        #expect(ErrorWords.name(of: code) == name)
        #expect(ErrorWords.describe(URLError(code)) == "\(name) (URLError \(code.rawValue))")
    }
}

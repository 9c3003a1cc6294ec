import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineTesting
import Testing

/// Auth sends its credential only to the origin a call started at (the redirect history's), or
/// to the origins it is allowed.
@Suite struct AuthOriginTests {
    static let start = URL(string: "https://api.example.invalid/me") ?? testURL

    /// A request for `url` that a redirect layer sent as a later hop of a call made to `start`.
    func hop(to url: String, from start: URL = Self.start) throws -> HTTPRequest {
        let target = try #require(URL(string: url))
        var request = HTTPRequest(url: target)
        request.context.redirectHistory = HTTPRedirectHistory(
            originalURL: start, hops: [HTTPRedirectHop(status: 302, from: start, to: target, method: .get)])
        return request
    }

    @Test func withoutARedirectHistoryEveryRequestGetsTheCredentialWhateverItsHost() async throws {
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: TestSource(), clock: ManualClock()) }
        for url in ["https://api.example.invalid/a", "https://elsewhere.example.invalid/b", "http://127.0.0.1:8080/c"] {
            _ = try await pipeline.send(HTTPRequest(url: try #require(URL(string: url))))
        }
        #expect(transport.requests.map { $0.fields["Authorization"] } == Array(repeating: "Bearer token-0", count: 3))
    }

    @Test func aCallsFirstRequestUnderARedirectLayerGetsTheCredential() async throws {
        let transport = ScriptedTransport { _ in .ok() }
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: TestSource(), clock: ManualClock()) }
        var request = HTTPRequest(url: Self.start)
        request.context.redirectHistory = HTTPRedirectHistory(originalURL: Self.start)
        _ = try await pipeline.send(request)
        #expect(transport.requests.first?.fields["Authorization"] == "Bearer token-0")
    }

    @Test(arguments: [
        "https://cdn.example.invalid/me",  // another host
        "http://api.example.invalid/me",  // another scheme
        "https://api.example.invalid:8443/me",  // another port
    ])
    func aHopToAnotherOriginGoesWithoutTheCredentialAndItsUnauthorizedRefreshesNothing(url: String) async throws {
        let source = TestSource()
        let transport = ScriptedTransport { _ in .status(401) }
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        let response = try await pipeline.send(try hop(to: url))
        #expect(response.status == 401, "the 401 is returned as it is")
        #expect(transport.requests.count == 1, "no replay")
        #expect(transport.requests.first?.fields["Authorization"] == nil)
        #expect(source.refreshes == 0)
    }

    @Test func aHopWithinTheCallsOriginGetsTheCredentialAndItsUnauthorizedIsRefreshedAndReplayed() async throws {
        let source = TestSource()
        let transport = ScriptedTransport { request in
            request.fields["Authorization"] == "Bearer token-1" ? .ok() : .status(401)
        }
        let pipeline = Pipeline(transport: transport) { AuthMiddleware(source: source, clock: ManualClock()) }
        // The default port written out and the host in capitals: still the call's origin.
        let response = try await pipeline.send(try hop(to: "https://API.example.invalid:443/loans"))
        #expect(response.status == 200)
        #expect(transport.requests.map { $0.fields["Authorization"] } == ["Bearer token-0", "Bearer token-1"])
        #expect(source.refreshes == 1)
    }

    @Test func anOriginInTheAllowListGetsTheCredentialOnAHopAndOthersStillDoNot() async throws {
        let source = TestSource()
        let transport = ScriptedTransport { _ in .ok() }
        let files = try #require(HTTPOrigin(scheme: "https", host: "files.example.invalid"))
        let options = AuthOptions(allowedOrigins: [files])
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(source: source, options: options, clock: ManualClock())
        }
        _ = try await pipeline.send(try hop(to: "https://files.example.invalid/report.pdf"))
        _ = try await pipeline.send(try hop(to: "https://cdn.example.invalid/report.pdf"))
        #expect(transport.requests.map { $0.fields["Authorization"] } == ["Bearer token-0", nil])
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineHeaders
import HTTPPipelineRedirect
import HTTPPipelineTesting
import Testing

/// A field that carries a credential never leaves the origin it was meant for, whatever the
/// order of auth, default headers and redirects (issue 37, item 2).
@Suite struct CredentialOriginTests {
    static let first = "https://api.example.com"
    static let other = "https://cdn.example.net"

    /// Sends one call that `api.example.com` redirects to `cdn.example.net`; returns the fields
    /// the second origin received.
    static func fieldsAtTheOtherOrigin(_ layers: [any HTTPMiddleware]) async throws -> HTTPFields {
        let transport = ScriptedTransport(routes: [
            "GET /start": .status(302, headers: ["Location": "\(other)/landing"]),
            "GET /landing": .ok("landed"),
        ])
        let pipeline = Pipeline(transport: transport, middleware: layers)
        let response = try await pipeline.send(HTTPRequest(url: #require(URL(string: "\(first)/start"))))
        #expect(response.status == 200)
        #expect(transport.requests.count == 2)
        #expect(transport.requests.first?.url.host == "api.example.com")
        return transport.requests.last?.fields ?? HTTPFields()
    }

    @Test func anAPIKeyCredentialSetOutsideTheRedirectLayerStaysWithItsOrigin() async throws {
        let fields = try await Self.fieldsAtTheOtherOrigin([
            AuthMiddleware(source: FixedSource(.apiKey("k-SECRET", header: "Api-Key"))), RedirectMiddleware(),
        ])
        #expect(fields["Api-Key"] == nil, "\(fields)")
    }

    @Test func aCustomCredentialsFieldsSetOutsideTheRedirectLayerStayWithTheirOrigin() async throws {
        let custom = Credential(
            token: "c-SECRET",
            scheme: .custom(name: "tenant") { request, token in
                request.fields["X-Tenant-Signature"] = token
                request.fields["X-Tenant-Id"] = "shelf"
            })
        let fields = try await Self.fieldsAtTheOtherOrigin([
            AuthMiddleware(source: FixedSource(custom)), RedirectMiddleware(),
        ])
        #expect(fields["X-Tenant-Signature"] == nil && fields["X-Tenant-Id"] == nil, "\(fields)")
    }

    @Test func aDefaultHeaderDeclaredACredentialOrNamedLikeASecretStaysWithItsOrigin() async throws {
        let headers = try DefaultHeaders([
            .fixed("X-Shop-Key", "s-SECRET", isCredential: true), .fixed("X-API-Key", "k-SECRET"),
            .fixed("User-Agent", "Shelf/2.3"),
        ])
        let fields = try await Self.fieldsAtTheOtherOrigin([headers, RedirectMiddleware()])
        #expect(fields["X-Shop-Key"] == nil && fields["X-API-Key"] == nil, "\(fields)")
        #expect(fields["User-Agent"] == "Shelf/2.3", "an ordinary header goes on")
    }

    @Test func aHopToTheSameOriginKeepsTheCredential() async throws {
        let transport = ScriptedTransport(routes: [
            "GET /start": .status(302, headers: ["Location": "\(Self.first)/landing"]),
            "GET /landing": .ok("landed"),
        ])
        let pipeline = Pipeline(transport: transport) {
            AuthMiddleware(source: FixedSource(.apiKey("k-SECRET", header: "Api-Key")))
            RedirectMiddleware()
        }
        _ = try await pipeline.send(HTTPRequest(url: #require(URL(string: "\(Self.first)/start"))))
        #expect(transport.requests.map { $0.fields["Api-Key"] } == ["k-SECRET", "k-SECRET"])
    }
}

/// A credential source with one credential that never changes.
private struct FixedSource: CredentialSource {
    let credential: Credential

    init(_ credential: Credential) {
        self.credential = credential
    }

    func currentCredential() async throws -> Credential? { credential }

    func refreshCredential(after failed: Credential?) async throws -> Credential { credential }
}

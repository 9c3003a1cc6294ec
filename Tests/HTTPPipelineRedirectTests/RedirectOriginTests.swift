import Foundation
import HTTPPipeline
import HTTPPipelineRedirect
import HTTPPipelineTesting
import Testing

/// What a hop to another origin drops, and what one within the origin keeps.
@Suite struct RedirectOriginTests {
    /// A GET carrying every field a hop to another origin may drop, and one it never does.
    func credentialed(_ target: String) -> HTTPRequest {
        HTTPRequest(
            url: url(target),
            fields: [
                .authorization: "Bearer s3cret", .proxyAuthorization: "Basic cHJveHk=", .cookie: "sid=c00kie",
                HTTPField.Name(unchecked: "X-API-Key"): "k3y", .accept: "application/json",
            ])
    }

    @Test(arguments: [
        "https://cdn.example.invalid/file",  // another host
        "https://api.example.invalid:8443/file",  // another port
        "http://api.example.invalid/file",  // another scheme (allowed by the policy below)
    ])
    func aCrossOriginRedirectDropsTheCredentialsCookiesAndListedFields(_ target: String) async throws {
        let transport = transport(["https://api.example.invalid/start": redirect(302, to: target)])
        let policy = RedirectPolicy(allowsInsecureRedirects: true, strippedAcrossOrigins: ["x-api-key"])
        _ = try await Pipeline(transport: transport) { RedirectMiddleware(policy: policy) }
            .send(credentialed("https://api.example.invalid/start"))
        let hop = try #require(transport.requests.last)
        #expect(hop.url.absoluteString == target)
        for name in ["Authorization", "Proxy-Authorization", "Cookie", "X-API-Key"] {
            #expect(hop.fields[name] == nil, "\(name) must not reach \(target)")
        }
        #expect(hop.fields["Accept"] == "application/json", "other fields go on")
        #expect(transport.requests.first?.fields["Authorization"] == "Bearer s3cret", "the first request had them")
    }

    @Test(arguments: [
        "/elsewhere", "https://api.example.invalid/elsewhere", "https://API.EXAMPLE.INVALID:443/elsewhere",
    ])
    func aSameOriginRedirectKeepsTheCredentialsAndCookies(_ location: String) async throws {
        let transport = transport(["https://api.example.invalid/start": redirect(307, to: location)])
        let policy = RedirectPolicy(strippedAcrossOrigins: ["X-API-Key"])
        _ = try await Pipeline(transport: transport) { RedirectMiddleware(policy: policy) }
            .send(credentialed("https://api.example.invalid/start"))
        #expect(transport.requests.count == 2)
        #expect(transport.requests.last?.fields == transport.requests.first?.fields, "every field stays")
    }

    @Test func fieldsDroppedOnTheWayOutStayDroppedWhenTheChainComesBackToTheFirstOrigin() async throws {
        let transport = transport([
            "https://api.example.invalid/start": redirect(302, to: "https://sso.example.invalid/bounce"),
            "https://sso.example.invalid/bounce": redirect(302, to: "https://api.example.invalid/done"),
        ])
        _ = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(credentialed("https://api.example.invalid/start"))
        #expect(transport.requests.map { $0.fields["Authorization"] } == ["Bearer s3cret", nil, nil])
    }

    @Test func httpsToHttpIsRefusedByDefaultAndNothingIsSentInClearText() async throws {
        let transport = transport([
            "https://api.example.invalid/start": redirect(302, to: "http://api.example.invalid/x")
        ])
        let error = await redirectError(credentialed("https://api.example.invalid/start"), over: transport)
        #expect(
            error
                == .insecureRedirect(
                    from: try #require(HTTPOrigin(url("https://api.example.invalid"))),
                    to: try #require(HTTPOrigin(url("http://api.example.invalid")))))
        #expect(sentURLs(transport) == ["https://api.example.invalid/start"])
    }

    @Test func httpsToHttpIsFollowedWhenThePolicyAllowsIt() async throws {
        let transport = transport([
            "https://api.example.invalid/start": redirect(302, to: "http://api.example.invalid/x")
        ])
        let redirects = RedirectMiddleware(policy: RedirectPolicy(allowsInsecureRedirects: true))
        let response = try await Pipeline(transport: transport) { redirects }
            .send(credentialed("https://api.example.invalid/start"))
        #expect(response.status == 200)
        #expect(sentURLs(transport).last == "http://api.example.invalid/x")
        #expect(transport.requests.last?.fields["Authorization"] == nil, "another scheme is another origin")
    }

    @Test func httpToHttpsIsFollowed() async throws {
        let transport = transport([
            "http://api.example.invalid/start": redirect(301, to: "https://api.example.invalid/start")
        ])
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(HTTPRequest(url: url("http://api.example.invalid/start")))
        #expect(response.status == 200)
        #expect(sentURLs(transport) == ["http://api.example.invalid/start", "https://api.example.invalid/start"])
    }
}

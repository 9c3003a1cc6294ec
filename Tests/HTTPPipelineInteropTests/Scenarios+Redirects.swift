import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineLogging
import HTTPPipelineRedirect
import HTTPPipelineTesting
import Testing

/// httpbin's redirects followed by `RedirectMiddleware` over a transport that hands them back.
extension Scenario {
    /// Redirects outside auth (a bearer credential) outside logging, over `URLSessionTransport`;
    /// the records go to `own` (this scenario's, for its checks) and to `shared` (the run's, which
    /// other scenarios write to at the same time in the whole-run test, checked for secrets).
    static func redirecting(_ own: InMemoryLogSink, _ shared: InMemoryLogSink) -> some HTTPTransport {
        let both = ClosureLogSink { record in
            own.write(record)
            shared.write(record)
        }
        return Pipeline(transport: Scenario.transport()) {
            RedirectMiddleware()
            AuthMiddleware(source: FreshToken())
            LoggingMiddleware(level: .headers, sink: both)
        }
    }

    /// The same server under its other name (`127.0.0.1` and `localhost`): another origin.
    static func otherOrigin(of server: HTTPBin) throws -> String {
        let base = server.base.absoluteString
        let other =
            base.contains("127.0.0.1")
            ? base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            : base.replacingOccurrences(of: "localhost", with: "127.0.0.1")
        guard other != base else { throw InteropFailure("HTTPBIN_URL names neither 127.0.0.1 nor localhost: \(base)") }
        return other
    }

    /// `/redirect-to` to another origin (302 on a GET, 307 on a POST) and to the same one: the
    /// other origin echoes no credential and no cookie, the same origin echoes both.
    static func redirectToAnotherOrigin(_ server: HTTPBin, _ shared: InMemoryLogSink) async throws {
        let sink = InMemoryLogSink()
        let pipeline = redirecting(sink, shared)
        let other = try otherOrigin(of: server)
        func redirectTo(_ target: String, status: Int) throws -> HTTPRequest {
            var components = URLComponents(url: try server.url("/redirect-to"), resolvingAgainstBaseURL: false)
            components?.queryItems = [
                .init(name: "url", value: target), .init(name: "status_code", value: "\(status)"),
            ]
            guard let url = components?.url else { throw InteropFailure("cannot build /redirect-to") }
            var request = HTTPRequest(url: url)
            request.fields["Cookie"] = "sid=\(Secrets.cookieValue)"
            return request
        }
        let away = try await pipeline.send(try redirectTo(other + "/headers", status: 302))
        let awayHeaders = try echoedHeaders(try await away.bytes())
        #expect(away.status == 200)
        #expect(awayHeaders["authorization"] == nil, "no credential at the other origin")
        #expect(awayHeaders["cookie"] == nil, "no cookie at the other origin")

        var post = try redirectTo(other + "/anything", status: 307)
        post.method = .post
        post.fields["Content-Type"] = "text/plain"
        post.body = HTTPBody(Data("kept".utf8))
        let posted = try await pipeline.send(post)
        let echo = try jsonObject(try await posted.bytes())
        #expect(
            echo["method"] as? String == "POST" && echo["data"] as? String == "kept", "the 307 kept method and body")
        let postHeaders = (echo["headers"] as? [String: String] ?? [:]).keys.map { $0.lowercased() }
        #expect(!postHeaders.contains("authorization") && !postHeaders.contains("cookie"))

        let home = try await pipeline.send(try redirectTo("/headers", status: 302))
        let homeHeaders = try echoedHeaders(try await home.bytes())
        #expect(
            InteropCassettes.echoes(homeHeaders["authorization"], "Bearer \(Secrets.freshToken)"),
            "the same origin keeps the credential")
        #expect(InteropCassettes.echoes(homeHeaders["cookie"], "sid=\(Secrets.cookieValue)"), "and the cookie")
        let statuses = sink.records.filter { $0.url.contains("/redirect-to") }.map(\.outcome)
        #expect(statuses == [302, 307, 302].map { .response(status: $0) }, "each redirect is logged as a hop")
    }

    /// `/redirect/3`, `/absolute-redirect/3` or `/relative-redirect/3`: three hops, each logged,
    /// ending at `/get`.
    static func followedChain(_ path: String, _ server: HTTPBin, _ shared: InMemoryLogSink) async throws {
        let sink = InMemoryLogSink()
        let pipeline = redirecting(sink, shared)
        let hops = Locked<[HTTPRedirectHop]>([])
        var request = try server.request(path)
        request.context.onRedirect = { hop in hops.withLock { $0.append(hop) } }
        let response = try await pipeline.send(request)
        let data = try await response.bytes()
        #expect(response.status == 200)
        #expect(try jsonObject(data)["url"] as? String == (try server.url("/get").absoluteString))
        #expect(hops.value.count == 3, "\(path): three hops")
        #expect(hops.value.last?.to == (try server.url("/get")))
        #expect(hops.value.allSatisfy { $0.status == 302 && $0.method == .get })
        #expect(
            sink.records.map(\.outcome) == [302, 302, 302, 200].map { .response(status: $0) },
            "\(path): each hop logged")
        #expect(sink.records.map(\.url) == ([request.url] + hops.value.map(\.to)).map(\.absoluteString))
    }
}

/// A bearer credential httpbin's `/bearer` would accept; never rejected in these scenarios.
struct FreshToken: CredentialSource {
    func currentCredential() async throws -> Credential? { .bearer(Secrets.freshToken) }
    func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer(Secrets.freshToken) }
}

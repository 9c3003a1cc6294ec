import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineLogging
import HTTPPipelineTesting
import HTTPPipelineURLSession

/// A token service on the loopback server: `/token` rotates the access and refresh tokens;
/// `/me/shelf` accepts only the current access token.
final class DemoTokenServer: Sendable {
    let state = Locked((access: "access-1", refresh: "refresh-1", issued: 1, refreshCalls: 0))

    func install(on server: LoopbackServer) {
        server.route("POST", "/token") { request in
            let presented = String(decoding: request.body, as: UTF8.self)
            return self.state.withLock { state in
                guard presented == "refresh_token=\(state.refresh)" else { return .init(status: 400) }
                state.issued += 1
                state.refreshCalls += 1
                state.access = "access-\(state.issued)"
                state.refresh = "refresh-\(state.issued)"
                let body = #"{"access_token":"\#(state.access)","refresh_token":"\#(state.refresh)"}"#
                return .init(
                    headers: [("Content-Type", "application/json")], body: Data(body.utf8), delay: .milliseconds(50))
            }
        }
        server.route("GET", "/me/shelf") { request in
            let valid = self.state.withLock { "Bearer \($0.access)" }
            return request.header("Authorization") == valid ? .init(body: Data("[\"Dune\"]".utf8)) : .init(status: 401)
        }
    }

    /// Expires the current access token, as a server does when its lifetime runs out.
    func expireAccessToken() {
        state.withLock { $0.access = "expired-\($0.issued)" }
    }
}

/// The app's side: keeps the tokens, and refreshes them through a pipeline without auth.
actor DemoCredentialSource: CredentialSource {
    private var access = "access-1"
    private var refresh = "refresh-1"
    private let tokenEndpoint: URL
    private let transport: any HTTPTransport

    init(tokenEndpoint: URL, transport: any HTTPTransport) {
        self.tokenEndpoint = tokenEndpoint
        self.transport = transport
    }

    func currentCredential() -> Credential? { .bearer(access) }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        let request = HTTPRequest(
            method: .post, url: tokenEndpoint, body: HTTPBody(Data("refresh_token=\(refresh)".utf8)))
        let response = try await transport.send(request)
        guard response.status == 200,
            let data = try? await response.body.collect(upTo: 1 << 16),
            let tokens = try? JSONDecoder().decode([String: String].self, from: data),
            let newAccess = tokens["access_token"], let newRefresh = tokens["refresh_token"]
        else { throw RefreshTokenRejected() }
        refresh = newRefresh
        return .bearer(newAccess)
    }

    func persist(_ credential: Credential) { access = credential.token }
}

/// 20 concurrent requests hit an expired token; the server sees one refresh.
func showAuth(server: LoopbackServer, transport: URLSessionTransport) async throws {
    let tokens = DemoTokenServer()
    tokens.install(on: server)
    // The token endpoint is called through a pipeline *without* the auth middleware.
    let tokenClient = Pipeline(transport: transport) {
        demoCallObserver()
        LoggingMiddleware(level: .basic, sink: InMemoryLogSink())
    }
    let source = DemoCredentialSource(
        tokenEndpoint: server.baseURL.appendingPathComponent("token"), transport: tokenClient)
    let sink = InMemoryLogSink()
    let pipeline = Pipeline(transport: transport) {
        demoCallObserver()
        AuthMiddleware(source: source)
        demoAttemptObserver()  // each send: the first, and the one after a refresh
        LoggingMiddleware(level: .basic, sink: sink)
    }
    heading("Auth: 20 concurrent requests meet an expired token")
    print("   \(pipeline)")
    let shelf = server.baseURL.appendingPathComponent("me/shelf")
    _ = try await pipeline.send(HTTPRequest(url: shelf))
    tokens.expireAccessToken()
    sink.reset()
    let before = server.requests.count
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<20 {
            group.addTask { try await pipeline.send(HTTPRequest(url: shelf)).status.code }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    // The server's own view, with tokens shown only by generation: never print a token.
    let log = server.requests.dropFirst(before).map { request -> String in
        let token =
            request.header("Authorization").map {
                $0.hasSuffix("-1") ? "with the expired token" : "with the refreshed token"
            } ?? ""
        return "\(request.method) \(request.path) \(token)"
    }
    let counts = Dictionary(log.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
    print("   the server's log, grouped:")
    for (line, count) in counts { print("     \(count) × \(line)") }
    print("   refreshes at the token endpoint: \(tokens.state.value.refreshCalls)")
    print(
        "   the callers saw: \(Dictionary(statuses.map { ($0, 1) }, uniquingKeysWith: +).map { "\($1) × \($0)" }.joined(separator: ", "))"
    )
    let secretsInLog = ["access-2", "refresh-2"].filter { sink.text.contains($0) }
    print("   tokens in the client log: \(secretsInLog.isEmpty ? "none" : secretsInLog.joined(separator: ", "))")
}

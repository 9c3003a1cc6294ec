import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import TestSupport

/// The soak's token endpoint, as the client's `OAuth2TokenSource` sees it: a transport that
/// reads the refresh-token grant's form, asks the ``SoakServer`` to rotate, and answers with the
/// JSON of RFC 6749 §5.1, or `invalid_grant`.
///
/// Every `slowEvery`-th call answers later than auth's refresh timeout (the source's call is
/// never cancelled); every `loseEvery`-th answer is lost after the server rotated: the call fails
/// the way a transport fails when the connection closes before a response byte
/// (`HTTPTransportError.outcomeUnknown`).
struct SoakTokenEndpoint: HTTPTransport {
    static let url = URL(string: "https://soak.invalid/oauth/token") ?? URL(fileURLWithPath: "/")

    let server: SoakServer
    let slowEvery: Int
    let slowness: Duration
    let loseEvery: Int
    let calls = Locked(0)

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = request.body?.bufferedData ?? Data()
        let form = TokenEndpointServer.form(body)
        let number = calls.withLock { count in
            count += 1
            return count
        }
        guard form["grant_type"] == "refresh_token", let presented = form["refresh_token"] else {
            return Self.json(#"{"error":"unsupported_grant_type"}"#, status: 400)
        }
        let answer = server.refresh(presenting: presented, loseEvery: loseEvery)
        if slowEvery > 0, number % slowEvery == 0 { try? await Task.sleep(for: slowness) }
        switch answer {
        case .refused:
            return Self.json(#"{"error":"invalid_grant"}"#, status: 400)
        case .issued(_, _, lost: true):
            throw HTTPTransportError.outcomeUnknown
        case .issued(let access, let refresh, lost: false):
            return Self.json(
                #"{"access_token":"\#(access)","token_type":"Bearer","refresh_token":"\#(refresh)"}"#, status: 200)
        }
    }

    private static func json(_ text: String, status: Int) -> HTTPResponse {
        var fields = HTTPFields()
        fields["Content-Type"] = "application/json"
        return HTTPResponse(status: .init(integerLiteral: status), fields: fields, body: HTTPBody(Data(text.utf8)))
    }
}

/// The client's token storage in a soak run: on the ``SoakServer``, which checks that it never
/// goes back to an older credential and always holds the one in use.
struct SoakTokenStorage: OAuth2TokenStorage {
    let server: SoakServer

    func load() async throws -> OAuth2Token? {
        let stored = server.stored
        return stored.access.map { OAuth2Token(accessToken: $0, refreshToken: stored.refresh) }
    }

    func save(_ token: OAuth2Token) async throws {
        server.store(token.accessToken, refresh: token.refreshToken)
    }

    func remove() async throws {
        server.store(nil, refresh: nil)
    }
}

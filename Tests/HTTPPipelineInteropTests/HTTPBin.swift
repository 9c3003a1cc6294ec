import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineCurl
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The httpbin server the suite runs against: `HTTPBIN_URL` (see `Scripts/interop-server.sh`).
struct HTTPBin: Sendable {
    let base: URL

    /// `HTTPBIN_URL` as set, if it is: the suite runs when it is set and is skipped otherwise.
    static let setting: String? = ProcessInfo.processInfo.environment["HTTPBIN_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The server `HTTPBIN_URL` names; a value that is not an http URL fails every test, rather
    /// than skipping them.
    static func configured() throws -> HTTPBin {
        guard let setting else { throw InteropFailure("HTTPBIN_URL is not set") }
        let trimmed = setting.hasSuffix("/") ? String(setting.dropLast()) : setting
        guard let url = URL(string: trimmed), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw InteropFailure("HTTPBIN_URL is not an http URL: \(setting)")
        }
        return HTTPBin(base: url)
    }

    /// An absolute URL for a path and query on the server (`/status/503`, `/cookies/set?a=b`).
    func url(_ pathAndQuery: String) throws -> URL {
        guard let url = URL(string: base.absoluteString + pathAndQuery) else {
            throw InteropFailure("not a URL: \(pathAndQuery)")
        }
        return url
    }

    /// A GET request for a path and query on the server (the sessions of
    /// ``URLSessionTransport/interop(followingRedirects:)`` time a request out after 30 s).
    func request(_ pathAndQuery: String) throws -> HTTPRequest {
        HTTPRequest(url: try url(pathAndQuery))
    }
}

struct InteropFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Every secret a scenario sends or receives; none of them may ever reach a log.
enum Secrets {
    /// The first credential: sent as `Authorization: Token …`, which httpbin's `/bearer` rejects.
    static let staleToken = "interop-STALE-token-7c1e0a"
    /// What the refresh returns: sent as `Authorization: Bearer …`, which `/bearer` accepts.
    static let freshToken = "interop-FRESH-token-5b93d2"
    static let password = "interop-PASSWORD-e4f81b"
    static let cookieValue = "interop-COOKIE-93ad7f"

    static let all = [staleToken, freshToken, password, cookieValue]

    /// The secrets found in a log's text.
    static func leaked(in sink: InMemoryLogSink) -> [String] {
        let text = sink.text
        return all.filter { text.contains($0) }
    }
}

/// A credential source whose stored credential the server rejects, and whose refresh returns one
/// it accepts; it counts refreshes.
final class RejectedThenFreshTokens: CredentialSource {
    private let refreshes = Locked(0)

    var refreshCount: Int { refreshes.value }

    func currentCredential() async throws -> Credential? {
        // Not a bearer token: httpbin's /bearer answers 401 to anything but `Bearer <token>`.
        Credential(
            token: Secrets.staleToken,
            scheme: .custom(name: "Authorization") { request, token in
                request.fields["Authorization"] = "Token " + token
            })
    }

    func refreshCredential(after failed: Credential?) async throws -> Credential {
        refreshes.withLock { $0 += 1 }
        return .bearer(Secrets.freshToken)
    }
}

/// The transports every scenario runs over, each in turn.
enum TransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlSession
    case curl

    /// The kind the running scenario uses: set by `Scenario.run(on:into:over:)`, inherited by
    /// the tasks the scenario starts.
    @TaskLocal static var current = TransportKind.urlSession

    var description: String {
        switch self {
        case .urlSession: "URLSessionTransport"
        case .curl: "CurlTransport"
        }
    }

    /// Whether the transport can follow redirects below the pipeline (`CurlTransport` never does).
    var canFollowRedirects: Bool { self == .urlSession }
}

/// A transport of the running scenario's kind (``TransportKind/current``).
struct InteropTransport: HTTPTransport {
    let base: any HTTPTransport

    /// A fresh transport of the current kind: URLSession's over an ephemeral session of its own
    /// (cookies one scenario sets never reach another), handing redirects back or following them
    /// below the pipeline; curl's over an engine of its own with as many connections per host.
    /// A request times out after 30 s.
    /// Recorded or replayed as ``InteropCassettes`` says.
    static func make(followingRedirects: Bool = false) -> InteropTransport {
        switch TransportKind.current {
        case .urlSession:
            return InteropTransport(
                base: InteropCassettes.transport(
                    over: URLSessionTransport.interop(followingRedirects: followingRedirects)))
        case .curl:
            var configuration = CurlTransport.Configuration.default
            configuration.maximumConnectionsPerHost = 8
            configuration.timeout = .seconds(30)
            return InteropTransport(base: InteropCassettes.transport(over: CurlTransport(configuration: configuration)))
        }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await base.send(request)
    }
}

extension URLSessionTransport {
    /// A transport over a session of its own (ephemeral: cookies one scenario sets never reach
    /// another), handing redirects back (as `URLSessionTransport` does by default) or following
    /// them below the pipeline; a request times out after 30 s.
    static func interop(followingRedirects: Bool = false) -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 8
        configuration.timeoutIntervalForRequest = 30
        return URLSessionTransport(configuration: configuration, followsRedirects: followingRedirects)
    }
}

extension RetryPolicy {
    /// Three attempts with short waits, so retried statuses cost milliseconds, not seconds.
    static func interop() -> RetryPolicy {
        .attempts(3, backoff: .exponential(base: .milliseconds(20), cap: .milliseconds(50)))
    }
}

extension HTTPResponse {
    /// The whole body (at most 16 MiB).
    func bytes() async throws -> Data {
        try await body.collect(upTo: 1 << 24)
    }
}

/// A JSON object from a response body.
func jsonObject(_ data: Data) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw InteropFailure("the body is not a JSON object: \(String(decoding: data.prefix(200), as: UTF8.self))")
    }
    return object
}

/// The headers httpbin echoes (`/headers`, `/anything`), names lowercased.
func echoedHeaders(_ data: Data) throws -> [String: String] {
    guard let headers = try jsonObject(data)["headers"] as? [String: String] else {
        throw InteropFailure("no headers echoed")
    }
    return Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
}

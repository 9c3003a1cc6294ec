import Foundation
import HTTPPipeline
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineTesting
import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The built-in plugins on the same server: default headers, then redacting logging at headers
/// level, with a secret in the `Authorization` header and another in the `access_token` query.
func showPlugins(server: LoopbackServer, transport: URLSessionTransport) async throws {
    let bearer = "demo-bearer-7c1f9e"
    let queryToken = "demo-query-token-42ab"
    let sink = InMemoryLogSink()
    let pipeline = try Pipeline(transport: transport) {
        demoCallObserver()
        try DefaultHeaders([
            .fixed("User-Agent", "pipeline-demo/1.0"),
            .fixed("Accept", "application/json"),
        ])
        LoggingMiddleware(level: .headers, sink: sink)
    }
    heading("Plugins: default headers, then redacting logging")
    print("   \(pipeline)")

    var components = URLComponents(
        url: server.baseURL.appendingPathComponent("me/loans"), resolvingAgainstBaseURL: false)
    components?.queryItems = [
        URLQueryItem(name: "access_token", value: queryToken), URLQueryItem(name: "page", value: "1"),
    ]
    guard let url = components?.url else { throw URLError(.badURL) }
    var request = HTTPRequest(url: url)
    request.fields["Authorization"] = "Bearer \(bearer)"
    _ = try await pipeline.send(request)

    for line in sink.text.split(separator: "\n") { print("   " + line) }
    let leaked = [bearer, queryToken, "s3ss10n-c00k1e"].filter { sink.text.contains($0) }
    print("   secrets in the log: \(leaked.isEmpty ? "none" : leaked.joined(separator: ", "))")
    let received = server.requests.last
    print(
        "   the server still received Authorization: \(received?.header("Authorization") == "Bearer \(bearer)" ? "the real token" : "something else")"
    )
    if !leaked.isEmpty { throw DemoError.secretLeaked }
}

enum DemoError: Error {
    case secretLeaked
}

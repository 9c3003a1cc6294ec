import Foundation
import HTTPPipeline
import HTTPPipelineRedirect
import HTTPPipelineTesting
import Testing

/// An absolute URL from a literal the test wrote.
func url(_ text: String) -> URL {
    guard let url = URL(string: text) else { preconditionFailure("not a URL: \(text)") }
    return url
}

/// A redirect with `status` to `location`.
func redirect(_ status: Int, to location: String) -> ScriptedTransport.Reply {
    .status(status, headers: ["Location": location], body: Data("see \(location)".utf8))
}

/// A transport that answers by absolute URL (fragment aside), 200 "final" for any URL not listed.
func transport(_ replies: [String: ScriptedTransport.Reply]) -> ScriptedTransport {
    ScriptedTransport { request in
        var text = request.url.absoluteString
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        return replies[text] ?? .ok("final")
    }
}

/// The URLs the transport was sent, in order.
func sentURLs(_ transport: ScriptedTransport) -> [String] {
    transport.requests.map(\.url.absoluteString)
}

/// Sends `request` through a pipeline of `redirects` over `transport` and returns the error it
/// threw as a `RedirectError`, failing the test when it threw nothing or something else.
func redirectError(
    _ request: HTTPRequest,
    over transport: ScriptedTransport,
    _ redirects: RedirectMiddleware = RedirectMiddleware(),
    sourceLocation: SourceLocation = #_sourceLocation
) async -> RedirectError? {
    do {
        _ = try await Pipeline(transport: transport) { redirects }.send(request)
        Issue.record("expected a RedirectError, the call succeeded", sourceLocation: sourceLocation)
    } catch let error as RedirectError {
        return error
    } catch {
        Issue.record("expected a RedirectError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// A request with a JSON body and the fields that describe it.
func jsonPost(_ method: HTTPMethod = .post, to target: String, body: HTTPBody? = nil) -> HTTPRequest {
    let bytes = Data(#"{"title":"Dune"}"#.utf8)
    return HTTPRequest(
        method: method, url: url(target),
        fields: [
            .contentType: "application/json", .contentLength: String(bytes.count), .contentEncoding: "identity",
            .transferEncoding: "chunked", .accept: "application/json",
        ],
        body: body ?? HTTPBody(bytes))
}

/// A single-pass stream of `text`.
func singlePass(_ text: String) -> HTTPBody {
    HTTPBody(
        stream: AsyncStream { continuation in
            continuation.yield(Data(text.utf8))
            continuation.finish()
        })
}

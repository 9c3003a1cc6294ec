import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineLogging
import HTTPPipelineRedirect
import HTTPPipelineTesting
import HTTPPipelineURLSession

/// What the redirect section saw, for its test.
struct RedirectDemoResult {
    let status: Int
    let hops: [HTTPRedirectHop]
    let records: Int
    /// The `Authorization` and `Cookie` fields each server received.
    let credentialsAtFirst: Int
    let credentialsAtOther: Int
    let cookiesAtOther: Int
}

/// A cover image moved to a CDN on another origin (`localhost` on a second server): the redirect
/// is followed in the pipeline, logging inside it records each hop, and the CDN receives neither
/// the API's credential nor the caller's cookie.
@discardableResult
func showRedirect(server: LoopbackServer, transport: URLSessionTransport) async throws -> RedirectDemoResult {
    let cdn = LoopbackServer()
    try cdn.start()
    defer { cdn.stop() }
    cdn.route("GET", "/covers/1.jpg", .init(headers: [("Content-Type", "image/jpeg")], body: Data(count: 2048)))
    // Both on 127.0.0.1, on two ports: two origins. Cookies are bound to the origin that set
    // them, so even the host's cookies stay with the API.
    let cdnBase = cdn.baseURL.absoluteString.trimmingCharacters(in: ["/"])
    server.route("GET", "/books/1/cover", .init(status: 302, headers: [("Location", "\(cdnBase)/covers/1.jpg")]))

    let sink = InMemoryLogSink()
    let pipeline = Pipeline(transport: transport) {
        demoCallObserver()
        RedirectMiddleware()  // outside: each hop goes through the layers below
        AuthMiddleware(source: MemberCard())  // the credential only for the API's origin
        demoAttemptObserver()  // each hop
        LoggingMiddleware(level: .headers, sink: sink)  // one record per hop
    }
    heading("Redirects: a cover moved to another origin")
    print("   \(pipeline)")
    let hops = Locked<[HTTPRedirectHop]>([])
    var request = HTTPRequest(url: server.baseURL.appendingPathComponent("books/1/cover"))
    request.fields["Cookie"] = "session=member-c00kie"
    request.context.onRedirect = { hop in hops.withLock { $0.append(hop) } }
    let before = server.requests.count
    let response = try await pipeline.send(request)
    let image = try await response.body.collect(upTo: 1 << 16)
    for line in sink.text.split(separator: "\n") { print("   " + line) }
    for hop in hops.value { print("   hop: \(hop.status) \(hop.from) -> \(hop.to)") }
    let atFirst = server.requests.dropFirst(before)
    let atOther = cdn.requests
    let credentialsAtFirst = atFirst.filter { $0.header("Authorization") != nil }.count
    let credentialsAtOther = atOther.filter { $0.header("Authorization") != nil }.count
    let cookiesAtOther = atOther.filter { $0.header("Cookie") != nil }.count
    print("   the API received \(atFirst.count) request(s), \(credentialsAtFirst) with Authorization")
    print(
        "   the CDN received \(atOther.count) request(s): \(credentialsAtOther) with Authorization, "
            + "\(cookiesAtOther) with Cookie")
    print("   the caller saw: \(response.status), \(image.count) bytes of image")
    return RedirectDemoResult(
        status: response.status.code, hops: hops.value, records: sink.records.count,
        credentialsAtFirst: credentialsAtFirst,
        credentialsAtOther: credentialsAtOther, cookiesAtOther: cookiesAtOther)
}

/// A member's token that never expires, enough for this section.
private struct MemberCard: CredentialSource {
    func currentCredential() async throws -> Credential? { .bearer("member-t0ken") }
    func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("member-t0ken") }
}

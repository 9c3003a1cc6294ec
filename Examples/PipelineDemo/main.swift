import Dispatch
import Foundation
import HTTPPipeline
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineTesting
import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// pipeline-demo: two middleware written here in both orders, then each plugin, the standard stack,
// a large streamed download and a library app, all against one loopback server.
//
//   swift run pipeline-demo
//
// Starts an HTTP/1.1 server on 127.0.0.1, sends requests through URLSessionTransport, and prints
// what each layer saw, in order. Then it swaps the two layers and shows what changed.

func makeServer() throws -> LoopbackServer {
    let server = LoopbackServer()
    server.route(
        "GET", "/books/1",
        .init(
            headers: [("Content-Type", "application/json")],
            body: Data(#"{"id":1,"title":"The Left Hand of Darkness"}"#.utf8),
            delay: .milliseconds(20)
        ))
    server.route("GET", "/missing", .init(status: 404))
    server.route(
        "GET", "/me/loans",
        .init(
            headers: [("Content-Type", "application/json"), ("Set-Cookie", "session=s3ss10n-c00k1e; HttpOnly")],
            body: Data(#"[{"book":1,"due":"2026-12-14"}]"#.utf8)
        ))
    try server.start()
    return server
}

func send(_ path: String, through pipeline: some HTTPTransport, server: LoopbackServer) async {
    let request = HTTPRequest(url: server.baseURL.appendingPathComponent(path))
    do {
        _ = try await pipeline.send(request)
    } catch {
        print("   request to \(path) failed: \(error)")
    }
}

func show(
    _ title: String, _ pipeline: some HTTPTransport & CustomStringConvertible, server: LoopbackServer, report: Report
) async {
    heading(title, also: ["DemoMiddleware.swift"])
    print("   \(pipeline)")
    let before = server.requests.count
    for path in ["books/1", "missing"] {
        await send(path, through: pipeline, server: server)
        for line in report.flush() { print("   " + line) }
        print("   ·")
    }
    let arrived = server.requests.dropFirst(before)
    let ids = arrived.map { $0.header("X-Request-ID") ?? "none" }
    print("   the server received \(arrived.count) requests, X-Request-ID: \(ids.joined(separator: ", "))")
}

func runDemo() async throws {
    let server = try makeServer()
    defer { server.stop() }
    print("loopback server on \(server.baseURL)")

    let report = Report()
    let transport = URLSessionTransport()

    let stampOutside = Pipeline(transport: transport) {
        demoCallObserver()
        HeaderStamp(client: "pipeline-demo", report: report)
        TimingLog(report: report)
    }
    await show("HeaderStamp outside TimingLog", stampOutside, server: server, report: report)

    let stampInside = Pipeline(transport: transport) {
        demoCallObserver()
        TimingLog(report: report)
        HeaderStamp(client: "pipeline-demo", report: report)
    }
    await show("The same two layers, swapped", stampInside, server: server, report: report)

    print(
        """

        What changed:
         - Order of arrival: the first layer listed sees the request first and the response last.
         - With HeaderStamp outside, TimingLog sees the request ID it stamped; with HeaderStamp
           inside, TimingLog logs "none": a layer only sees what the layers outside it did.
         - The server received the same stamped headers either way: order changes what the layers
           observe, not what the stamp sends.
        """)

    try await showPlugins(server: server, transport: transport)
    try await showRetry(server: server, transport: transport)
    try await showAuth(server: server, transport: transport)
    try await showStorm()
    try await showRedirect(server: server, transport: transport)
    try await showDeadline(server: server, transport: transport)
    try await showHedging(server: server, transport: transport)
    try showOrdering(server: server, transport: transport)
    try await showStreaming(server: server, transport: transport)
    try await showLibrary()
    try await showCatalogCache()
    try await showCookieLogin()
    showMetrics()
}

let finished = DispatchSemaphore(value: 0)
let exitCode = Locked(Int32(0))
Task.detached {
    do {
        try await runDemo()
    } catch {
        print("demo failed: \(error)")
        exitCode.withLock { $0 = 1 }
    }
    finished.signal()
}
finished.wait()
exit(exitCode.withLock { $0 })

import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineURLSession

/// What the streaming section saw, for its tests.
struct StreamingDemoResult: Sendable {
    /// The decoded size the server's gzip body has, and its size on the wire.
    var decodedBytes: Int
    var wireBytes: Int
    /// What `write(to:)` wrote, and the size of the file it left.
    var writtenBytes: Int
    var fileBytes: Int?
    /// Whether the file is gone after the section removed it.
    var fileRemoved: Bool
    /// The progress milestones printed, in percent.
    var milestones: [Int]
    /// Megabytes resident memory rose during the download; `nil` off Linux.
    var residentGrowthMegabytes: Double?
    /// The log records the download made.
    var downloadRecords: Int
    /// Requests the server got for one call to an always-503 route: with the stack's retry
    /// policy, then with `context.retryPolicy = RetryPolicy.none`.
    var attemptsWithDefault: Int
    var attemptsWithOverride: Int
}

/// A large gzip download streamed through the standard stack into a file, with progress and the
/// memory it took; then one call whose context overrides the stack's retry policy (`retry`, the
/// standard one unless a test needs a deadline that a loaded machine cannot reach).
@discardableResult
func showStreaming(
    server: LoopbackServer,
    transport: URLSessionTransport,
    mebibytes: Int = 256,
    retry: RetryPolicy = .default
) async throws -> StreamingDemoResult {
    let body = try DemoGzipBody(mebibytes: mebibytes)
    server.route(
        "GET", "/export.json",
        .init(
            headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
            body: .chunked(body.chunks)))
    server.route("GET", "/busy", .init(status: 503, headers: [("Retry-After", "0")]))
    let sink = InMemoryLogSink()
    let gzip = streamingGzipOptions(decodedBytes: body.decodedBytes)
    let pipeline = try StandardPipeline.build(
        over: transport,
        options: StandardOptions(retry: retry, logging: .init(level: .basic, sink: sink), gzip: gzip).observedByDemo())
    heading("Streaming: a \(mebibytes) MiB gzip download to a file", also: ["StreamingDemo+Support.swift"])
    print("   \(pipeline)")
    print(
        "   GET /export.json: Content-Encoding: gzip, \(megabytes(body.wireBytes)) on the wire,"
            + " \(megabytes(body.decodedBytes)) decoded")

    // Progress arrives on the transport's thread, often: only the milestones are printed.
    let total = Int64(body.decodedBytes)
    let milestones = Locked<[Int]>([])
    var request = HTTPRequest(url: server.baseURL.appendingPathComponent("export.json"))
    request.context.progress = { progress in
        let percent = Int(min(progress.receivedBytes * 100 / max(total, 1), 100))
        let reached = milestones.withLock { printed -> Int? in
            guard let next = [25, 50, 75, 100].first(where: { $0 > (printed.last ?? 0) }), percent >= next else {
                return nil
            }
            printed.append(next)
            return next
        }
        if let reached { print("   progress: \(reached) % (\(megabytes(Int(progress.receivedBytes))))") }
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-demo-\(UUID().uuidString).json")
    let ((written, fileBytes), growth) = try await DemoResidentMemory.growth {
        let response = try await pipeline.send(request)
        let written = try await response.body.write(to: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue
        return (written, size)
    }
    try? FileManager.default.removeItem(at: file)
    let removed = !FileManager.default.fileExists(atPath: file.path)
    print(
        "   body.write(to:) wrote \(megabytes(written)) to \(file.lastPathComponent) in the temporary directory"
            + "\(removed ? ", then it was removed" : ", which could not be removed")")
    if let growth {
        let verdict =
            growth < Double(body.decodedBytes) / 1e6 / 4
            ? "flat: the body streamed, never held whole" : "the body was held in memory"
        print("   resident memory grew \(String(format: "%.1f", growth)) MB during the download: \(verdict)")
    }
    let downloadRecords = sink.records.count
    for line in sink.text.split(separator: "\n") { print("   log: " + line) }
    sink.reset()

    // A per-call override: the same stack, one call without retries.
    print("   ·")
    let busy = HTTPRequest(url: server.baseURL.appendingPathComponent("busy"))
    let attemptsWithDefault = try await attempts(at: server, path: "/busy") { _ = try await pipeline.send(busy) }
    var once = busy
    once.context.retryPolicy = RetryPolicy.none
    let attemptsWithOverride = try await attempts(at: server, path: "/busy") { _ = try await pipeline.send(once) }
    print("   GET /busy (always 503) with the stack's retry policy: \(attemptsWithDefault) attempts at the server")
    print("   the same call with context.retryPolicy = RetryPolicy.none: \(attemptsWithOverride) attempt at the server")

    return StreamingDemoResult(
        decodedBytes: body.decodedBytes,
        wireBytes: body.wireBytes,
        writtenBytes: written,
        fileBytes: fileBytes,
        fileRemoved: removed,
        milestones: milestones.withLock { $0 },
        residentGrowthMegabytes: growth,
        downloadRecords: downloadRecords,
        attemptsWithDefault: attemptsWithDefault,
        attemptsWithOverride: attemptsWithOverride
    )
}

/// How many requests for `path` the server received while `call` ran.
private func attempts(at server: LoopbackServer, path: String, _ call: () async throws -> Void) async throws -> Int {
    let before = server.requests.filter { $0.path == path }.count
    try await call()
    return server.requests.filter { $0.path == path }.count - before
}

private func megabytes(_ bytes: Int) -> String {
    bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
}

/// The gzip layer stops a body past 64 MiB decoded (a decompression bomb); an export known to be
/// larger raises the limit to its size. URLSession inflates it below the pipeline, and the layer
/// counts what it hands up against the same limit.
func streamingGzipOptions(decodedBytes: Int) -> GzipOptions {
    GzipOptions.default.limiting(
        decodedSize: max(GzipOptions.default.maximumDecodedSize, decodedBytes),
        expansionRatio: GzipOptions.default.maximumExpansionRatio)
}

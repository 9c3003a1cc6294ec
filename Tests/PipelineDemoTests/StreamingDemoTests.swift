import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineRetry
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

@testable import pipeline_demo

/// The demo's streaming section: a gzip download through the standard stack into a file, and a
/// per-call retry override, against the loopback server.
@Suite struct StreamingDemoTests {
    @Test("The streaming section writes the whole download to a file, removes it, and prints each milestone once")
    func downloadArrivesWholeInAFileThatIsRemoved() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }

        // The default's three attempts without its 30 s deadline (as the retry test below): the
        // section's always-503 call retried past 30 s once in the whole suite under the sanitizer.
        let result = try await showStreaming(
            server: server, transport: URLSessionTransport(), mebibytes: 16,
            retry: .attempts(3, deadline: .seconds(86_400)))

        #expect(result.decodedBytes == 16 << 20)
        #expect(result.wireBytes < result.decodedBytes / 4, "the body went compressed")
        #expect(result.writtenBytes == 16 << 20)
        #expect(result.fileBytes == 16 << 20)
        #expect(result.fileRemoved)
        #expect(result.milestones == [25, 50, 75, 100])
        #expect(result.downloadRecords == 1, "the streamed body was logged once, when it ended")
        #expect(server.requests.filter { $0.path == "/export.json" }.count == 1)
    }

    @Test("The streaming section's 256 MiB download fits its gzip limit, which the default 64 MiB would stop")
    func theSectionsGzipLimitFitsItsDownload() {
        #expect(streamingGzipOptions(decodedBytes: 256 << 20).maximumDecodedSize >= 256 << 20)
        #expect(streamingGzipOptions(decodedBytes: 1 << 20).maximumDecodedSize == 64 << 20, "never below the default")
    }

    @Test("The retry override in the streaming section sends once where a three-attempt policy sends three times")
    func retryOverrideSendsOnce() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }

        // The default's three attempts, without its 30 s deadline: in the whole suite under the
        // thread sanitizer one loopback request has taken over 30 s, and retry rightly gave up.
        let threeAttempts = RetryPolicy.attempts(3, deadline: .seconds(86_400))
        let result = try await showStreaming(
            server: server, transport: URLSessionTransport(), mebibytes: 1, retry: threeAttempts)

        #expect(result.attemptsWithDefault == 3)
        #expect(result.attemptsWithOverride == 1)
    }

    @Test("The demo's gzip body is one valid gzip stream of the repeated page, its trailer covering every copy")
    func gzipBodyDecodesToTheRepeatedPage() async throws {
        let body = try DemoGzipBody(mebibytes: 3)
        let wire = body.chunks.reduce(Data(), +)
        let transport = ScriptedTransport([.status(200, headers: ["Content-Encoding": "gzip"], body: wire)])
        let pipeline = Pipeline(transport: transport) { GzipMiddleware() }

        let response = try await pipeline.send(HTTPRequest(url: URL(fileURLWithPath: "/export.json")))
        let decoded = try await response.body.collect(upTo: 8 << 20)

        #expect(body.decodedBytes == 3 << 20)
        #expect(decoded.count == 3 << 20)
        #expect(decoded == Data(repeatElement(DemoGzipBody.group, count: 3).joined()))
        #expect(response.fields["Content-Encoding"] == nil)
    }
}

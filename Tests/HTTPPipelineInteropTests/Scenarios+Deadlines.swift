import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A 1 s total deadline over `URLSessionTransport`, under the default retry policy: it ends the
/// call within 1.1 s of real time, however the server stalls.
extension Scenario {
    /// The standard pipeline with the default retry policy and a deadline of `limit`.
    static func deadlinePipeline(
        _ limit: Duration, sink: InMemoryLogSink
    ) throws -> Pipeline<some HTTPMiddleware, InteropTransport> {
        try StandardPipeline.build(
            over: Scenario.transport(),
            options: StandardOptions(
                totalTimeout: limit, retry: .default, logging: .init(level: .basic, sink: sink)))
    }

    /// Sends `request` through a 1 s deadline, checks that the call failed with the deadline's
    /// error within 1.1 s, prints the figure and returns it.
    @discardableResult
    static func cutByADeadline(_ request: HTTPRequest, _ sink: InMemoryLogSink, label: String) async throws -> Duration
    {
        let pipeline = try deadlinePipeline(.seconds(1), sink: sink)
        let clock = ContinuousClock()
        let start = clock.now
        let result = await Result { try await pipeline.send(request) }
        let elapsed = start.duration(to: clock.now)
        print("interop deadline, \(label): the 1 s deadline ended the call after \(elapsed)")
        #expect(throws: HTTPTimeoutError(.total, after: .seconds(1)), "\(label), after \(elapsed)") { try result.get() }
        #expect(elapsed >= .seconds(1), "\(label): not before the deadline, after \(elapsed)")
        #expect(elapsed < .milliseconds(1_100), "\(label): within 1.1 s, not after \(elapsed)")
        return elapsed
    }

    /// A loopback server that accepts the connection and never answers.
    static func deadlineOnASilentServer(_ sink: InMemoryLogSink) async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/silent", .init(status: 200, body: Data("too late".utf8), delay: .seconds(3_600)))
        try await cutByADeadline(
            HTTPRequest(url: server.baseURL.appendingPathComponent("silent")), sink, label: "a silent loopback server")
        #expect(
            server.requests.count == (InteropCassettes.isReplaying ? 0 : 1),
            "the first attempt was cut; no other started (and a replay sends nothing)")
    }

    /// httpbin's `/delay/3`, which answers after 3 s.
    static func deadlineOnDelay(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        try await cutByADeadline(try server.request("/delay/3"), sink, label: "httpbin /delay/3")
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing call.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

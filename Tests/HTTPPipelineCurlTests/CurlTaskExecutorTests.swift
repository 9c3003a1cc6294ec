import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import TestSupport
import Testing

/// A task that prefers the engine's executor runs on the engine's thread, sends and reads as any
/// other, is cancelled as any other, and still finishes once the engine is gone.
@Suite struct CurlTaskExecutorTests {
    /// The calling thread's name, as the kernel knows it (Linux).
    static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unknown"
        return name.trimmingCharacters(in: .newlines)
    }

    @Test func aTaskThatPrefersTheEngineRunsOnItsThreadBetweenRequestsThatAllSucceed() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/small", .init(body: Data("ok".utf8)))
        server.route("GET", "/large", .init(body: pattern(3 << 20)))
        let transport = CurlTransport()
        let names = try await withTaskExecutorPreference(transport.taskExecutor) {
            var names: Set<String> = []
            for index in 0..<20 {
                let response = try await transport.send(HTTPRequest(url: server.url(index == 10 ? "large" : "small")))
                let body = try await response.body.collect(upTo: 4 << 20)
                #expect(response.status == 200)
                #expect(body == (index == 10 ? pattern(3 << 20) : Data("ok".utf8)))
                names.insert(Self.threadName())
            }
            return names
        }
        #expect(names == ["HTTP curl loop"], "every resumption on the engine's thread")
    }

    @Test func cancellingATaskThatPrefersTheEngineAbortsItsTransfer() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/slow", .init(body: Data("late".utf8), delay: .seconds(3_600)))
        let transport = CurlTransport()
        let call = Task {
            try await withTaskExecutorPreference(transport.taskExecutor) {
                try await transport.send(HTTPRequest(url: server.url("slow")))
            }
        }
        #expect(await eventually { server.openConnections == 1 })
        call.cancel()
        await #expect(throws: CancellationError.self) { _ = try await call.value }
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test func aTaskThatPrefersAnEngineWhoseTransportIsGoneStillRunsToItsEnd() async throws {
        var configuration = CurlTransport.Configuration.default
        configuration.maximumConnectionsPerHost = 2  // an engine of its own, ended with its transport
        var transport: CurlTransport? = CurlTransport(configuration: configuration)
        let executor = try #require(transport?.taskExecutor)
        transport = nil
        let value = await withTaskExecutorPreference(executor) {
            await Task.yield()
            return 42
        }
        #expect(value == 42)
    }
}

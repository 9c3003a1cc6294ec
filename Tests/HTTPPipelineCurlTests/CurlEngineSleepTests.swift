#if os(Linux)
import Foundation
import HTTPPipeline
@testable import HTTPPipelineCurl
import HTTPPipelineTesting
import Testing

/// The engine's thread polls for a moment after each request before it sleeps
/// (`spinBeforeSleeping`): these pin that it does sleep, that its empty waits stay within their
/// budget, and that a request never waits for a thread that went to sleep.
@Suite("CurlTransport's engine thread sleeps when idle")
struct CurlEngineSleepTests {
    @Test func anIdleEngineThreadUsesAlmostNoCPUAfterItsRequestsEnd() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/ping", .init(body: Data("pong".utf8)))
        let transport = CurlTransport(configuration: .default)
        for _ in 0..<50 {
            _ = try await transport.send(HTTPRequest(url: server.url("ping")))
        }
        let engine = try transport.owner.engine.get()
        let before = try #require(engine.threadCPUTime)
        try await Task.sleep(for: .milliseconds(400))
        let used = try #require(engine.threadCPUTime) - before
        // A thread that kept polling would use the whole 400 ms; a sleeping one wakes once a
        // second at most (the poll's longest wait), for microseconds.
        #expect(used < .milliseconds(20), "the idle engine's thread used \(used) of CPU in 400 ms")
    }

    @Test func waitsForASlowServerSpinAtMostATenthOfTheTimeEvenWithALongWindow() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/slow", .init(body: Data("late".utf8), delay: .milliseconds(2)))
        var configuration = CurlTransport.Configuration.default
        configuration.spinBeforeSleeping = .milliseconds(1)
        let transport = CurlTransport(configuration: configuration)
        _ = try await transport.send(HTTPRequest(url: server.url("slow")))
        let engine = try transport.owner.engine.get()
        let clock = ContinuousClock()
        let start = clock.now
        let before = try #require(engine.threadCPUTime)
        // Each answer comes 2 ms after its request, so every 1 ms wait after a request finds
        // nothing: without the budget the thread would spin about half the time.
        for _ in 0..<200 {
            _ = try await transport.send(HTTPRequest(url: server.url("slow")))
        }
        let used = try #require(engine.threadCPUTime) - before
        let elapsed = start.duration(to: clock.now)
        #expect(used < elapsed * 0.3, "the engine's thread used \(used) of CPU in \(elapsed)")
    }

    @Test func withoutTheSpinEveryRequestWakesTheSleepingThreadAtOnce() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/ping", .init(body: Data("pong".utf8)))
        var configuration = CurlTransport.Configuration.default
        configuration.spinBeforeSleeping = .zero
        let transport = CurlTransport(configuration: configuration)
        // Each request finds the thread asleep (or about to be): a request that did not wake it
        // would wait out the poll's second, which the engine counts.
        for _ in 0..<200 {
            let response = try await transport.send(HTTPRequest(url: server.url("ping")))
            #expect(response.body.bufferedData == Data("pong".utf8))
        }
        #expect(try transport.owner.engine.get().lostWakeUps == 0)
    }
}
#endif

import Foundation
import HTTPPipeline
import HTTPPipelineTimeout

/// A transport that answers after one suspension, so a deadline layer above it arms its timer
/// and disarms it when the answer comes (an instant answer arms none).
struct YieldingTransport: HTTPTransport {
    let response: HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        await Task.yield()
        return response
    }
}

/// 100,000 calls through a 30 s deadline layer, answered at once and after one suspension:
/// resident memory before and after must stay flat (a cancelled `Task.sleep` would hold ~720 B
/// per call until its 30 s deadline), and no timer may stay armed. Also the layer's cost when
/// its timer is armed and disarmed, against the same chain without it.
enum TimeoutMemoryBench {
    static func measurements(calls: Int = 100_000) async -> [(String, Double)] {
        let response = HTTPResponse(status: 200, body: HTTPBody(Data("ok".utf8)))
        let request = HTTPRequest(url: URL(fileURLWithPath: "/bench"))
        var entries: [(String, Double)] = []
        let pipelines: [(String, any HTTPTransport)] = [
            (
                "instant",
                Pipeline(transport: InMemoryTransport(response: response)) { TimeoutMiddleware.deadline(.seconds(30)) }
            ),
            (
                "suspending",
                Pipeline(transport: YieldingTransport(response: response)) { TimeoutMiddleware.deadline(.seconds(30)) }
            ),
        ]
        for (name, pipeline) in pipelines {
            _ = await measureOpened(pipeline, request, 1_000)
            ResidentMemory.trimHeap()
            guard let before = ResidentMemory.kilobytes("VmRSS:") else { return entries }
            _ = await measureOpened(pipeline, request, calls)
            ResidentMemory.trimHeap()
            guard let after = ResidentMemory.kilobytes("VmRSS:") else { return entries }
            entries += [
                ("timeout_memory_\(name)_calls", Double(calls)),
                ("timeout_memory_\(name)_rss_before_kb", Double(before)),
                ("timeout_memory_\(name)_rss_after_kb", Double(after)),
                ("timeout_memory_\(name)_rss_growth_kb", Double(after - before)),
                ("timeout_memory_\(name)_timers_left", Double(DeadlineScheduler.shared.armedCount)),
            ]
        }
        let yielding = YieldingTransport(response: response)
        let medians = await runChains(
            [
                ("suspending_none", Pipeline(transport: yielding) { NoOp() }),
                (
                    "suspending_timeout",
                    Pipeline(transport: yielding) {
                        NoOp()
                        TimeoutMiddleware.deadline(.seconds(30))
                    }
                ),
            ], request: request, iterations: 20_000, rounds: 3)
        if let none = medians["suspending_none"], let with = medians["suspending_timeout"] {
            entries += [
                ("timeout_suspending_none_ns", none), ("timeout_suspending_ns", with),
                ("timeout_suspending_added_ns", with - none),
            ]
        }
        return entries
    }
}

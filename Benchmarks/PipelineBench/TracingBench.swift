import Foundation
import HTTPPipeline
import HTTPPipelineEvents
import HTTPPipelineTracing

/// What observing a call costs: `TraceContextMiddleware.call()` and `.attempt()` (a trace
/// started, a span made, two fields written), and `ObserverMiddleware.call(_:)` and `.attempt()`
/// with an observer that counts events by kind under a lock (four events a call), each against
/// the same pipeline with a no-op layer, over an in-memory transport, in one run.
enum TracingBench {
    static func measurements(iterations: Int, rounds: Int) async -> [(String, Double)] {
        let transport = InMemoryTransport(response: HTTPResponse(status: 200))
        let request = HTTPRequest(url: URL(string: "https://api.example.com/v1/books/1") ?? URL(fileURLWithPath: "/"))
        let chains: [(key: String, transport: any HTTPTransport)] = [
            ("tracing_none", Pipeline(transport: transport) { NoOp() }),
            (
                "tracing_trace_context",
                Pipeline(transport: transport) {
                    TraceContextMiddleware.call()
                    TraceContextMiddleware.attempt()
                }
            ),
            (
                "tracing_observer",
                Pipeline(transport: transport) {
                    ObserverMiddleware.call(CountingObserver())
                    ObserverMiddleware.attempt()
                }
            ),
        ]
        let medians = await runChains(chains, request: request, iterations: iterations, rounds: rounds)
        guard let none = medians["tracing_none"], let traced = medians["tracing_trace_context"],
            let observed = medians["tracing_observer"]
        else { return [] }
        return [("tracecontext_added_ns", traced - none), ("observer_added_ns", observed - none)]
    }
}

/// An observer as a user writes one for metrics: a count per kind, behind a lock.
final class CountingObserver: HTTPObserver {
    private let counts = Locked<[HTTPEvent.Kind: Int]>([:])

    func observe(_ event: HTTPEvent) {
        counts.withLock { $0[event.kind, default: 0] += 1 }
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineTracing

/// What trace context costs a call: `TraceContextMiddleware.call()` and `.attempt()` (a trace
/// started, a span made, two fields written) against the same pipeline with a no-op layer, over
/// an in-memory transport, in one run.
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
        ]
        let medians = await runChains(chains, request: request, iterations: iterations, rounds: rounds)
        guard let none = medians["tracing_none"], let traced = medians["tracing_trace_context"] else { return [] }
        return [("tracecontext_added_ns", traced - none)]
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineHeaders
import HTTPPipelineStandard

/// The standard stack's own cost per exchange on the happy path (headers, retry, auth, gzip; no
/// logging, whose record would hide the rest), against the same transport behind one no-op layer;
/// and the same stack with a no-op inserted at each of its five insertion points.
enum StandardStackBench {
    static func options() -> StandardOptions {
        StandardOptions(headers: [.fixed("User-Agent", "pipeline-bench/1")], credentials: StaticSource())
    }

    static func chains() -> [(key: String, transport: any HTTPTransport)] {
        let transport = LoggingBench.transport()
        var inserting = options()
        for point in [
            StandardOptions.InsertionPoint.outermost, .outsideRetry, .insideRetry, .insideAuth, .beforeTransport,
        ] {
            inserting.insert(NoOp(), at: point)
        }
        guard let standard = try? StandardPipeline.build(over: transport, options: options()),
            let inserted = try? StandardPipeline.build(over: transport, options: inserting)
        else { return [] }
        return [("standard_stack", standard), ("standard_stack_inserted", inserted)]
    }

    static func entries(_ medians: [String: Double]) -> [(String, Double)] {
        guard let none = medians["plugins_none"], none > 0 else { return [] }
        var entries: [(String, Double)] = []
        for key in ["standard_stack", "standard_stack_inserted"] {
            guard let with = medians[key] else { continue }
            entries += [("\(key)_ns", with), ("\(key)_ratio_to_none", with / none)]
        }
        return entries
    }
}

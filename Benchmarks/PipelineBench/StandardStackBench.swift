import Foundation
import HTTPPipeline
import HTTPPipelineHeaders
import HTTPPipelineStandard

/// The standard stack's own cost per exchange on the happy path (headers, retry, auth, gzip; no
/// logging, whose record would hide the rest), against the same transport behind one no-op layer.
enum StandardStackBench {
    static func options() -> StandardOptions {
        StandardOptions(headers: [.fixed("User-Agent", "pipeline-bench/1")], credentials: StaticSource())
    }

    static func chains() -> [(key: String, transport: any HTTPTransport)] {
        let transport = LoggingBench.transport()
        guard let standard = try? StandardPipeline.build(over: transport, options: options()) else { return [] }
        return [("standard_stack", standard)]
    }

    static func entries(_ medians: [String: Double]) -> [(String, Double)] {
        guard let none = medians["plugins_none"], none > 0 else { return [] }
        var entries: [(String, Double)] = []
        for key in ["standard_stack"] {
            guard let with = medians[key] else { continue }
            entries += [("\(key)_ns", with), ("\(key)_ratio_to_none", with / none)]
        }
        return entries
    }
}

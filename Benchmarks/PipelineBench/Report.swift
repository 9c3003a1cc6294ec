import Foundation

/// Turns median ns/request per chain into the table or the JSON object.
struct Report {
    let medians: [String: Double]
    let families: [Family]
    let counts: [Int]
    /// Median ns per exchange for `logging_none`, `logging_basic`, `logging_headers`.
    var logging: [String: Double] = [:]
    /// Further measurements, already named: plugin overheads, the auth storm, gzip.
    var extra: [(String, Double)] = []

    /// Logging's cost per exchange at each level, and its ratio to the same pipeline without it.
    var loggingEntries: [(String, Double)] {
        guard let without = logging["logging_none"], without > 0 else { return [] }
        var entries = [("logging_none_ns", without)]
        for level in ["basic", "headers"] {
            guard let with = logging["logging_\(level)"] else { continue }
            entries.append(("logging_\(level)_ns", with))
            entries.append(("logging_\(level)_added_ns", with - without))
            entries.append(("logging_\(level)_ratio_to_none", with / without))
        }
        return entries
    }

    func ns(_ family: Family, _ layers: Int) -> Double? {
        medians["\(family.rawValue)_\(layers)"]
    }

    /// Cost of one added hop: the slope from the 0-layer chain to the longest one.
    func perHop(_ family: Family) -> Double? {
        guard let most = counts.max(), most > 0, let zero = ns(family, 0), let top = ns(family, most) else {
            return nil
        }
        return (top - zero) / Double(most)
    }

    func ratio(_ family: Family, _ layers: Int) -> Double? {
        guard let ours = ns(family, layers), let baseline = ns(.closures, layers), baseline > 0 else { return nil }
        return ours / baseline
    }

    var entries: [(String, Double)] {
        var entries: [(String, Double)] = []
        for family in families {
            for layers in counts {
                if let value = ns(family, layers) { entries.append(("\(family.rawValue)_\(layers)_ns", value)) }
                if family != .closures, let value = ratio(family, layers) {
                    entries.append(("\(family.rawValue)_\(layers)_ratio_to_closures", value))
                }
            }
            if let hop = perHop(family) { entries.append(("\(family.rawValue)_ns_per_hop", hop)) }
        }
        return entries + loggingEntries + extra
    }

    func print(json: Bool) {
        if json {
            let body = entries.map { "  \"\($0.0)\": \(String(format: "%.2f", $0.1))" }.joined(separator: ",\n")
            Swift.print("{\n\(body)\n}")
            return
        }
        if !counts.isEmpty {
            printChains()
        }
        if !loggingEntries.isEmpty {
            Swift.print("\nlogging, per exchange (same pipeline with and without a LoggingMiddleware)")
            for (key, value) in loggingEntries {
                Swift.print(
                    pad(key, 32)
                        + (key.hasSuffix("ratio_to_none")
                            ? String(format: "%.2fx", value) : String(format: "%.0f ns", value)))
            }
        }
        if !extra.isEmpty {
            Swift.print("\nplugins, gzip, soak and end to end")
            for (key, value) in extra {
                Swift.print(pad(key, 40) + String(format: value.rounded() == value ? "%.0f" : "%.3f", value))
            }
        }
    }

    private func printChains() {
        Swift.print("chain      " + counts.map { pad("\($0) layers", 12) }.joined() + pad("ns/hop", 10))
        for family in families {
            let cells = counts.map { pad(ns(family, $0).map { String(format: "%.1f ns", $0) } ?? "-", 12) }
            let hop = perHop(family).map { String(format: "%.2f", $0) } ?? "-"
            Swift.print(pad(family.rawValue, 11) + cells.joined() + pad(hop, 10))
        }
        for family in families where family != .closures {
            let cells = counts.map { pad(ratio(family, $0).map { String(format: "%.3fx", $0) } ?? "-", 12) }
            Swift.print(pad("\(family.rawValue)/cl", 11) + cells.joined())
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

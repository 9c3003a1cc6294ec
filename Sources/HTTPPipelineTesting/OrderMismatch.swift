public import HTTPPipeline

/// An expected order that differs from the actual one, printed side by side so a failing test
/// shows exactly where the orders part.
///
/// ```swift
/// import Testing
///
/// let mismatch = pipeline.checkLayerOrder(["DefaultHeaders", "RetryMiddleware", "AuthMiddleware"])
/// #expect(mismatch == nil, "\(mismatch?.description ?? "")")
/// // layer order differs:
/// //    #   expected         actual
/// //    1   DefaultHeaders   DefaultHeaders
/// // ≠  2   RetryMiddleware  AuthMiddleware
/// // ≠  3   AuthMiddleware   RetryMiddleware
/// ```
public struct OrderMismatch: Sendable, Equatable, CustomStringConvertible {
    /// What was checked, for the first line of the message.
    public let subject: String
    /// The expected lines, in order.
    public let expected: [String]
    /// The actual lines, in order.
    public let actual: [String]

    /// Creates a mismatch, or `nil` when the two agree.
    ///
    /// - Parameters:
    ///   - subject: What was checked.
    ///   - expected: The expected lines.
    ///   - actual: The actual lines.
    public init?(_ subject: String, expected: [String], actual: [String]) {
        guard expected != actual else { return nil }
        self.subject = subject
        self.expected = expected
        self.actual = actual
    }

    public var description: String {
        let width = max("expected".count, expected.map(\.count).max() ?? 0) + 2
        var lines = ["\(subject) differs:", "   " + pad("#", 4) + pad("expected", width) + "actual"]
        for row in 0..<max(expected.count, actual.count) {
            let left = row < expected.count ? expected[row] : "—"
            let right = row < actual.count ? actual[row] : "—"
            let mark = left == right ? "   " : "≠  "
            lines.append(mark + pad("\(row + 1)", 4) + pad(left, width) + right)
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

extension Pipeline {
    /// Compares the pipeline's layer names, outermost first, with `expected`.
    ///
    /// - Parameter expected: The layer names, outermost first.
    /// - Returns: `nil` when they agree, else the two orders side by side.
    public func checkLayerOrder(_ expected: [String]) -> OrderMismatch? {
        OrderMismatch("layer order", expected: expected, actual: layerNames)
    }
}

extension OrderLog {
    /// How many requests a probe saw for each attempt number (0 where no retrying layer outside
    /// set one), optionally only those for one path.
    ///
    /// - Parameters:
    ///   - layer: The probe's name.
    ///   - path: Only requests for this URL path; all paths when `nil`.
    /// - Returns: Visits per attempt number.
    public func visitsPerAttempt(_ layer: String, path: String? = nil) -> [Int: Int] {
        events
            .filter { $0.layer == layer && $0.phase == .request && (path == nil || $0.path == path) }
            .reduce(into: [:]) { counts, event in counts[event.attempt ?? 0, default: 0] += 1 }
    }

    /// Compares a probe's visits per attempt number with `expected`.
    ///
    /// - Parameters:
    ///   - layer: The probe's name.
    ///   - path: Only requests for this URL path; all paths when `nil`.
    ///   - expected: Visits per attempt number (0 for "no attempt number").
    /// - Returns: `nil` when they agree, else both side by side, one line per attempt.
    public func checkVisits(_ layer: String, path: String? = nil, perAttempt expected: [Int: Int]) -> OrderMismatch? {
        let render: ([Int: Int]) -> [String] = { counts in
            counts.keys.sorted().map { "attempt \($0): \(counts[$0] ?? 0) visit\(counts[$0] == 1 ? "" : "s")" }
        }
        let subject = "visits of \(layer)" + (path.map { " for \($0)" } ?? "")
        return OrderMismatch(subject, expected: render(expected), actual: render(visitsPerAttempt(layer, path: path)))
    }

    /// Compares the order in which layers saw `phase` with `expected`.
    ///
    /// - Parameters:
    ///   - phase: Requests, responses or errors.
    ///   - expected: Layer names in the expected order of arrival.
    /// - Returns: `nil` when they agree, else both orders side by side.
    public func checkOrder(_ phase: Phase, _ expected: [String]) -> OrderMismatch? {
        OrderMismatch("\(phase.rawValue) order", expected: expected, actual: layers(phase))
    }
}

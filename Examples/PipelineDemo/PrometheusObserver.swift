import HTTPPipeline

/// An `HTTPObserver` a user might write: it turns the pipeline's events into Prometheus-style
/// counters and histograms, kept in memory, with no dependency beyond this package.
/// ``exposition()`` renders them in the Prometheus text format (version 0.0.4) for a `/metrics`
/// endpoint or a push gateway; ``summaryTable()`` renders them for a person.
///
/// What it counts, from each kind of event:
/// - `http_client_calls_total{method,origin,outcome}`: calls ended (`callFinished`); `outcome`
///   is the final status code, or `error` when the call threw.
/// - `http_client_attempts_total{method,origin,outcome}`: attempts and hedged copies ended
///   (`attemptFinished`, reported by `ObserverMiddleware.attempt()`).
/// - `http_client_retries_total{reason}`: retries scheduled; `reason` is the plugin's word
///   (`status 503`, `timeout`, `error`).
/// - `http_client_auth_refreshes_total{kind}`: credential refreshes `started`, `joined` (a
///   call waiting for another's refresh), `finished` and `failed`.
/// - `http_client_redirects_total`: redirects followed.
/// - `http_client_cache_total{result}`: the cache's answers: `hit`, `miss`, `revalidated`,
///   `stale`.
/// - `http_client_limiter_waits_total`: calls that found no slot free and queued.
/// - `http_client_breaker_changes_total{change}`: circuit breaker transitions (`closed to open`).
/// - `http_client_hedges_total{event}`: hedged copies `sent`, and copies that `won`.
/// - Histograms `http_client_call_duration_seconds`, `http_client_attempt_duration_seconds`
///   and `http_client_time_to_first_byte_seconds` (the transport's `firstByte`, on each
///   attempt's end), over fixed bucket bounds from 5 ms to 5 s and `+Inf`.
///
/// Its labels hold the request's method and origin (scheme, host and port) and the short words
/// the plugins chose: never a path, a query, a header field or a body. The event carries none of
/// them, so a series can hold no secret and no unbounded value such as an ID in a path.
///
/// ``observe(_:)`` is called on the task that made the event, while the call waits: it builds
/// the series' key, takes a lock, adds to a dictionary and returns; it never blocks otherwise
/// and never awaits. One observer can serve any number of pipelines at once. Rendering copies
/// the state under the lock, then formats it outside.
final class PrometheusObserver: HTTPObserver {
    /// Upper bounds of the histograms' buckets, in seconds; a last bucket, `+Inf`, takes the rest.
    static let bucketBounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private let state = Locked(Registry())

    /// An observer with nothing counted.
    init() {}

    func observe(_ event: HTTPEvent) {
        // Method, origin and outcome: the request's method, its origin (never a path) and the
        // status code, or `error`.
        let exchange = {
            [
                Label("method", event.method.rawValue), Label("origin", event.origin?.description ?? "none"),
                Label("outcome", event.status.map { String($0.code) } ?? "error"),
            ]
        }
        var counters: [Series] = []
        var samples: [(Series, Double)] = []
        switch event.kind {
        case .callFinished:
            counters.append(Series(Metric.calls, exchange()))
            if let duration = event.duration { samples.append((Series(Metric.callDuration), seconds(duration))) }
        case .attemptFinished:
            counters.append(Series(Metric.attempts, exchange()))
            if let duration = event.duration { samples.append((Series(Metric.attemptDuration), seconds(duration))) }
            if let firstByte = event.metrics?.firstByte {
                samples.append((Series(Metric.timeToFirstByte), seconds(firstByte)))
            }
        case .retryScheduled:
            counters.append(Series(Metric.retries, [Label("reason", event.detail ?? "unknown")]))
        case .authRefreshStarted:
            counters.append(Series(Metric.authRefreshes, [Label("kind", "started")]))
        case .authRefreshJoined:
            counters.append(Series(Metric.authRefreshes, [Label("kind", "joined")]))
        case .authRefreshFinished:
            counters.append(Series(Metric.authRefreshes, [Label("kind", event.error == nil ? "finished" : "failed")]))
        case .redirectFollowed:
            counters.append(Series(Metric.redirects))
        case .cacheHit:
            counters.append(Series(Metric.cache, [Label("result", "hit")]))
        case .cacheMiss:
            counters.append(Series(Metric.cache, [Label("result", "miss")]))
        case .cacheRevalidated:
            counters.append(Series(Metric.cache, [Label("result", "revalidated")]))
        case .cacheStaleServed:
            counters.append(Series(Metric.cache, [Label("result", "stale")]))
        case .limiterQueued:
            counters.append(Series(Metric.limiterWaits))
        case .breakerStateChanged:
            counters.append(Series(Metric.breakerChanges, [Label("change", event.detail ?? "unknown")]))
        case .hedgeSent:
            counters.append(Series(Metric.hedges, [Label("event", "sent")]))
        case .hedgeWon:
            counters.append(Series(Metric.hedges, [Label("event", "won")]))
        default:
            return  // the starts, the limiter's admissions, and kinds of other middleware
        }
        state.withLock { registry in
            for series in counters { registry.counters[series, default: 0] += 1 }
            for (series, value) in samples { registry.histograms[series, default: Histogram()].record(value) }
        }
    }

    /// Every family in the Prometheus text format, version 0.0.4 (serve it as
    /// `text/plain; version=0.0.4`): `# HELP` and `# TYPE`, then one line per sample; label
    /// values escaped (backslash, double quote, line feed), series in a stable order, and the
    /// unlabelled counters and histograms present from the start, at zero.
    func exposition() -> String {
        let registry = state.value
        var lines: [String] = []
        for family in Metric.families {
            lines.append("# HELP \(family.name) \(escapeHelp(family.help))")
            lines.append("# TYPE \(family.name) \(family.type.rawValue)")
            switch family.type {
            case .counter:
                for (series, value) in registry.counterSamples(of: family) {
                    lines.append("\(family.name)\(series.labelText) \(value)")
                }
            case .histogram:
                for (series, histogram) in registry.histogramSamples(of: family) {
                    var cumulative = 0
                    for (index, count) in histogram.buckets.enumerated() {
                        cumulative += count
                        let bound = Label(
                            "le", index < Self.bucketBounds.count ? number(Self.bucketBounds[index]) : "+Inf")
                        let labels = Series(family.name, series.labels + [bound]).labelText
                        lines.append("\(family.name)_bucket\(labels) \(cumulative)")
                    }
                    lines.append("\(family.name)_sum\(series.labelText) \(histogram.sum)")
                    lines.append("\(family.name)_count\(series.labelText) \(histogram.count)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A compact table for a person: one row per counter series with its value, then one row
    /// per histogram with its count, mean, and median and 90th percentile estimated from the
    /// buckets (linearly within a bucket, as PromQL's `histogram_quantile` does). Times in
    /// milliseconds with one decimal and a period, whatever the locale.
    func summaryTable() -> String {
        let registry = state.value
        var counterRows: [(String, String)] = []
        for family in Metric.families where family.type == .counter {
            for (series, value) in registry.counterSamples(of: family) {
                counterRows.append((family.name + series.labelText, String(value)))
            }
        }
        var histogramRows: [[String]] = []
        for family in Metric.families where family.type == .histogram {
            for (series, histogram) in registry.histogramSamples(of: family) {
                let quantile = { (q: Double) in
                    histogram.quantile(q).map { milliseconds($0.seconds, beyondLastBound: $0.beyondLastBound) } ?? "-"
                }
                histogramRows.append([
                    family.name + series.labelText, String(histogram.count),
                    histogram.count == 0 ? "-" : milliseconds(histogram.sum / Double(histogram.count)),
                    quantile(0.5), quantile(0.9),
                ])
            }
        }
        let width = max(
            (counterRows.map(\.0.count) + histogramRows.map { $0[0].count }).max() ?? 0, "histogram".count)
        var lines = [pad("counter", width) + "  " + padLeft("value", 9)]
        lines += counterRows.map { pad($0.0, width) + "  " + padLeft($0.1, 9) }
        lines.append(
            pad("histogram", width) + "  "
                + ["count", "mean", "p50", "p90"].map { padLeft($0, 9) }.joined(separator: " "))
        lines += histogramRows.map { row in
            pad(row[0], width) + "  " + row.dropFirst().map { padLeft($0, 9) }.joined(separator: " ")
        }
        return lines.joined(separator: "\n")
    }
}

// MARK: - The metrics, their series, and the state behind the lock

/// The metrics' names, kinds and help texts, in the order the exposition lists them.
private enum Metric {
    enum Kind: String {
        case counter
        case histogram
    }

    struct Family {
        let name: String
        let type: Kind
        let help: String
        /// Whether its series carry labels: an unlabelled one is shown at zero before it is seen.
        var labelled = false
    }

    static let calls = "http_client_calls_total"
    static let attempts = "http_client_attempts_total"
    static let retries = "http_client_retries_total"
    static let authRefreshes = "http_client_auth_refreshes_total"
    static let redirects = "http_client_redirects_total"
    static let cache = "http_client_cache_total"
    static let limiterWaits = "http_client_limiter_waits_total"
    static let breakerChanges = "http_client_breaker_changes_total"
    static let hedges = "http_client_hedges_total"
    static let callDuration = "http_client_call_duration_seconds"
    static let attemptDuration = "http_client_attempt_duration_seconds"
    static let timeToFirstByte = "http_client_time_to_first_byte_seconds"

    static let families: [Family] = [
        Family(
            name: calls, type: .counter, help: "Calls ended, by method, origin and outcome (status code or error).",
            labelled: true),
        Family(
            name: attempts, type: .counter, help: "Attempts and hedged copies ended, by method, origin and outcome.",
            labelled: true),
        Family(name: retries, type: .counter, help: "Retries scheduled, by reason.", labelled: true),
        Family(
            name: authRefreshes, type: .counter, help: "Credential refreshes started, joined, finished or failed.",
            labelled: true),
        Family(name: redirects, type: .counter, help: "Redirects followed."),
        Family(name: cache, type: .counter, help: "HTTP cache answers, by result.", labelled: true),
        Family(name: limiterWaits, type: .counter, help: "Calls that waited for a concurrency limit slot."),
        Family(name: breakerChanges, type: .counter, help: "Circuit breaker state changes, by change.", labelled: true),
        Family(name: hedges, type: .counter, help: "Hedged copies sent, and copies that won.", labelled: true),
        Family(name: callDuration, type: .histogram, help: "Call duration, to the end of the response body."),
        Family(name: attemptDuration, type: .histogram, help: "Attempt duration, to the end of the response body."),
        Family(
            name: timeToFirstByte, type: .histogram, help: "Time from an attempt's start to the response's first byte."),
    ]
}

private struct Label: Hashable, Sendable {
    let name: String
    let value: String

    init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// One time series: a metric's name and its labels, in a fixed order.
private struct Series: Hashable, Sendable {
    let name: String
    let labels: [Label]

    init(_ name: String, _ labels: [Label] = []) {
        self.name = name
        self.labels = labels
    }

    /// `{method="GET",origin="https://example.com:443"}`, or nothing without labels.
    var labelText: String {
        labels.isEmpty
            ? "" : "{" + labels.map { "\($0.name)=\"\(escapeLabelValue($0.value))\"" }.joined(separator: ",") + "}"
    }
}

private struct Histogram: Sendable {
    /// Observations per bucket (not cumulative): one per bound, then the `+Inf` bucket.
    var buckets = [Int](repeating: 0, count: PrometheusObserver.bucketBounds.count + 1)
    var sum = 0.0
    var count = 0

    mutating func record(_ value: Double) {
        let index = PrometheusObserver.bucketBounds.firstIndex { value <= $0 } ?? PrometheusObserver.bucketBounds.count
        buckets[index] += 1
        sum += value
        count += 1
    }

    /// The `q` quantile, interpolated linearly inside its bucket (from 0 for the first); the last
    /// finite bound, flagged, when it falls in the `+Inf` bucket; `nil` with no observation.
    func quantile(_ q: Double) -> (seconds: Double, beyondLastBound: Bool)? {
        guard count > 0 else { return nil }
        let bounds = PrometheusObserver.bucketBounds
        let rank = q * Double(count)
        var below = 0
        for (index, inBucket) in buckets.enumerated() {
            if inBucket > 0, Double(below + inBucket) >= rank {
                guard index < bounds.count else { return (bounds[bounds.count - 1], true) }
                let lower = index == 0 ? 0 : bounds[index - 1]
                let upper = bounds[index]
                return (lower + (upper - lower) * (rank - Double(below)) / Double(inBucket), false)
            }
            below += inBucket
        }
        return nil
    }
}

private struct Registry: Sendable {
    var counters: [Series: Int] = [:]
    var histograms: [Series: Histogram] = [:]

    /// The family's counter series in a stable order; an unlabelled counter at zero when unseen.
    func counterSamples(of family: Metric.Family) -> [(Series, Int)] {
        let found = counters.filter { $0.key.name == family.name }.sorted { $0.key.labelText < $1.key.labelText }
        return found.isEmpty && !family.labelled ? [(Series(family.name), 0)] : found.map { ($0.key, $0.value) }
    }

    /// The family's histograms in a stable order; an empty one when none was recorded.
    func histogramSamples(of family: Metric.Family) -> [(Series, Histogram)] {
        let found = histograms.filter { $0.key.name == family.name }.sorted { $0.key.labelText < $1.key.labelText }
        return found.isEmpty ? [(Series(family.name), Histogram())] : found.map { ($0.key, $0.value) }
    }
}

// MARK: - Formatting

/// A label value as the text format wants it: backslash, double quote and line feed escaped.
private func escapeLabelValue(_ value: String) -> String {
    var escaped = ""
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\\": escaped += "\\\\"
        case "\"": escaped += "\\\""
        case "\n": escaped += "\\n"
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}

/// A `# HELP` text as the text format wants it: backslash and line feed escaped.
private func escapeHelp(_ help: String) -> String {
    var escaped = ""
    for scalar in help.unicodeScalars {
        switch scalar {
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}

/// A bucket bound as Prometheus clients print it: `1` rather than `1.0`, `0.005` as is.
private func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}

/// `seconds` as milliseconds with one decimal (`"12.3 ms"`, `">5000.0 ms"` past the last bound),
/// built from integers so that no locale changes the separator.
private func milliseconds(_ seconds: Double, beyondLastBound: Bool = false) -> String {
    let tenths = Int((seconds * 10_000).rounded())
    return (beyondLastBound ? ">" : "") + "\(tenths / 10).\(tenths % 10) ms"
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

private func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

private func padLeft(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

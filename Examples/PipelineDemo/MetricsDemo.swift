import HTTPPipeline
import HTTPPipelineEvents
import HTTPPipelineStandard

/// The one observer `--metrics` installs in the demo's pipelines; `nil` without the flag, when
/// every pipeline is built as before and the demo prints what it always did.
let demoObserver: PrometheusObserver? = CommandLine.arguments.contains("--metrics") ? PrometheusObserver() : nil

/// `ObserverMiddleware.call(_:)` with ``demoObserver``, for the first line of a pipeline's block;
/// `nil`, so no layer, without `--metrics`.
func demoCallObserver() -> ObserverMiddleware? {
    demoObserver.map { ObserverMiddleware.call($0) }
}

/// `ObserverMiddleware.attempt()`, for inside retry, hedging, auth or redirects (each attempt, copy
/// or hop); `nil`, so no layer, without `--metrics`.
func demoAttemptObserver() -> ObserverMiddleware? {
    demoObserver.map { _ in ObserverMiddleware.attempt() }
}

extension StandardOptions {
    /// These options with ``demoObserver`` as their observer (none without `--metrics`): the
    /// standard stack places both observer layers itself.
    func observedByDemo() -> StandardOptions {
        var options = self
        options.observer = demoObserver
        return options
    }
}

/// With `--metrics`, the last section: what the shared ``PrometheusObserver`` counted from the
/// events of every section above, as a table, then the start and the end of its Prometheus exposition.
func showMetrics() {
    guard let observer = demoObserver else { return }
    heading("Metrics: what the observer counted (--metrics)", also: ["PrometheusObserver.swift"])
    for line in observer.summaryTable().split(separator: "\n") { print("   " + line) }
    let exposition = observer.exposition().split(separator: "\n")
    print("   ·")
    print("   exposition(), Prometheus text format 0.0.4: the first and the last 15 of its \(exposition.count) lines")
    for line in exposition.prefix(15) { print("     " + line) }
    print("     …")
    for line in exposition.suffix(15) { print("     " + line) }
}

extension EndToEndBench {
    /// The three headline figures, from the per-target entries: against nginx when it
    /// was measured (a server that is not the bottleneck), else against the loopback server.
    ///
    /// - `e2e_curl_vs_urlsession_sequential`: bare `CurlTransport` over bare
    ///   `URLSessionTransport`, one request at a time (goal ≥ 3.5);
    /// - `e2e_curl_vs_urlsession_8tasks`: the same with 8 tasks at once (goal ≥ 5);
    /// - `e2e_pipeline_over_curl_ratio`: the standard pipeline over curl against bare curl,
    ///   sequential (goal ≥ 0.9).
    static func curlSummary(_ entries: [(String, Double)], nginx: Bool) -> [(String, Double)] {
        let target = nginx ? "nginx" : "loopback"
        let values = Dictionary(entries, uniquingKeysWith: { first, _ in first })
        let pairs = [
            ("e2e_curl_vs_urlsession_sequential", "e2e_\(target)_sequential_curl_vs_urlsession"),
            ("e2e_curl_vs_urlsession_8tasks", "e2e_\(target)_concurrent\(concurrentTasks)_curl_vs_urlsession"),
            ("e2e_pipeline_over_curl_ratio", "e2e_\(target)_sequential_pipeline_over_curl_ratio"),
        ]
        return pairs.compactMap { key, source in values[source].map { (key, $0) } }
    }
}

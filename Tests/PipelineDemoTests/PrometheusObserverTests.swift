import Foundation
import HTTPPipeline
import HTTPPipelineEvents
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

@testable import pipeline_demo

/// The demo's Prometheus-style observer, fed by a real pipeline's events.
@Suite struct PrometheusObserverTests {
    @Test func aRetriedCallIsCountedAsOneCallTwoAttemptsAndOneRetryInTheExposition() async throws {
        let observer = PrometheusObserver()
        let client = Pipeline(transport: ScriptedTransport([.status(503), .ok("fine")])) {
            ObserverMiddleware.call(observer)
            RetryMiddleware(policy: .attempts(2, backoff: .immediate), clock: ManualClock())
            ObserverMiddleware.attempt()
        }
        let url = try #require(URL(string: "https://api.example/books?key=s3cr3t"))
        _ = try await client.send(HTTPRequest(url: url))

        let exposition = observer.exposition()
        let labels = #"method="GET",origin="https://api.example:443""#
        #expect(exposition.contains("http_client_calls_total{\(labels),outcome=\"200\"} 1"), "\(exposition)")
        #expect(exposition.contains("http_client_attempts_total{\(labels),outcome=\"503\"} 1"))
        #expect(exposition.contains("http_client_attempts_total{\(labels),outcome=\"200\"} 1"))
        #expect(exposition.contains("http_client_retries_total{reason=\"status 503\"} 1"))
        #expect(exposition.contains("http_client_call_duration_seconds_count 1"))
        #expect(exposition.contains("http_client_attempt_duration_seconds_count 2"))
        #expect(exposition.contains("le=\"+Inf\""))
        #expect(!exposition.contains("s3cr3t") && !exposition.contains("/books"), "no path or query in a label")
        let table = observer.summaryTable()
        #expect(table.contains("http_client_call_duration_seconds"))
        #expect(table.contains(" ms"))
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The middleware of Documentation/WritingMiddleware.md, kept compiling and passing here.
struct CorrelationID: HTTPMiddleware {
    var makeID: @Sendable () -> String = { UUID().uuidString }

    func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
        guard request.value(forHTTPHeaderField: "X-Correlation-ID") == nil else {
            return try await next(request)
        }
        var request = request
        request.setValue(makeID(), forHTTPHeaderField: "X-Correlation-ID")
        return try await next(request)
    }
}

@Suite struct WritingMiddlewareGuideTests {
    let url = URL(string: "https://api.example.com/x") ?? URL(fileURLWithPath: "/")

    @Test func correlationIDIsAddedWhenMissing() async throws {
        let transport = ScriptedTransport([.ok("hi")])
        let pipeline = Pipeline(transport: transport) { CorrelationID(makeID: { "id-1" }) }
        _ = try await pipeline.send(URLRequest(url: url))
        #expect(transport.requests.first?.value(forHTTPHeaderField: "X-Correlation-ID") == "id-1")
    }

    @Test func correlationIDKeepsTheMiddlewareContract() async {
        var request = URLRequest(url: url)
        request.setValue("caller", forHTTPHeaderField: "X-Correlation-ID")
        let report = await MiddlewareContract(passThroughRequest: request).check { CorrelationID() }
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func correlationIDSitsBetweenTheProbesWhereItWasPlaced() async throws {
        let log = OrderLog()
        let pipeline = Pipeline(transport: ScriptedTransport([.ok()])) {
            OrderProbe("before", log: log)
            CorrelationID()
            OrderProbe("after", log: log)
        }
        _ = try await pipeline.send(URLRequest(url: url))
        #expect(log.description == "before> after> after< before<")
        #expect(pipeline.description == "Pipeline(before -> CorrelationID -> after -> ScriptedTransport)")
    }
}

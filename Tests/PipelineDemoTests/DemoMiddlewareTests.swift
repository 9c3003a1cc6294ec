import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@testable import pipeline_demo

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The demo's own middleware keep the contract every middleware of the project keeps.
@Suite struct DemoMiddlewareTests {
    @Test func headerStampKeepsTheContractExceptPassThroughSinceItStampsEveryRequest() async {
        let report = await MiddlewareContract(skipping: [.passThrough]).check(
            HeaderStamp(client: "test", report: Report()))
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func timingLogKeepsTheWholeContract() async {
        let report = await MiddlewareContract().check(TimingLog(report: Report()))
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func headerStampStampsAUniqueIDAndTheClientName() async throws {
        let transport = ScriptedTransport([.ok(), .ok()])
        let pipeline = Pipeline(transport: transport) { HeaderStamp(client: "demo", report: Report()) }
        let url = URL(string: "http://example.invalid/x") ?? URL(fileURLWithPath: "/")
        _ = try await pipeline.send(HTTPRequest(url: url))
        _ = try await pipeline.send(HTTPRequest(url: url))
        #expect(transport.requests.map { $0.fields["X-Request-ID"] } == ["req-1", "req-2"])
        #expect(transport.requests.allSatisfy { $0.fields["X-Client"] == "demo" })
    }

    @Test func timingLogReportsTheStatusItSawOrTheError() async throws {
        let report = Report()
        let pipeline = Pipeline(transport: ScriptedTransport([.status(404), .failure(URLError(.timedOut))])) {
            TimingLog(report: report)
        }
        let url = URL(string: "http://example.invalid/x") ?? URL(fileURLWithPath: "/")
        _ = try await pipeline.send(HTTPRequest(url: url))
        await #expect(throws: URLError(.timedOut)) { try await pipeline.send(HTTPRequest(url: url)) }
        let lines = report.flush()
        #expect(lines.count == 4)
        #expect(lines[1].contains("404"))
        #expect(lines[3].contains("URLError"))
    }
}

import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite("CurlTransport keeps the transport contract", .serialized)
struct CurlConformanceTests {
    static let suite = TransportConformance(promptness: conformancePromptness)

    @Test(arguments: TransportConformance.Check.all)
    func curlTransportKeepsTheContract(_ check: TransportConformance.Check) async {
        let verdict = await Self.suite.run(check) { CurlTransport() }
        #expect(verdict.holds, "\(verdict)")
    }
}

import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import TestSupport
import Testing

@Suite(
    "URLSessionTransport keeps the transport contract, but for FoundationNetworking's documented limits", .serialized)
struct URLSessionConformanceTests {
    /// The reasons are the transport's documented limits (its "Below the pipeline" section).
    static let suite = TransportConformance(
        exceptions: [
            .requestFieldsInOrder:
                "URLRequest holds fields in a dictionary: a repeated name goes as one line joined with \", \", which RFC 9110 §5.3 makes equivalent for list-valued fields",
            .noAddedRequestFields:
                "FoundationNetworking adds Connection, User-Agent and Accept-Language, and libcurl below it Accept and Accept-Encoding, unless the request has its own",
            .responseFieldsInOrder:
                "HTTPURLResponse holds fields in a dictionary: a repeated name comes back as one value joined with \", \" (Set-Cookie is split again, where a new name=value begins), in no set order",
            .interimResponsesSkipped: "FoundationNetworking hands over an interim 103 head as the response",
        ],
        skipped: [
            .trailersDropped:
                "FoundationNetworking traps the process (\"Transfer completed, but there's no response\") on a chunked body with trailer fields"
        ],
        promptness: conformancePromptness)

    @Test(arguments: TransportConformance.Check.all)
    func urlSessionTransportKeepsTheContract(_ check: TransportConformance.Check) async {
        let verdict = await Self.suite.run(check) { URLSessionTransport() }
        #expect(verdict.holds, "\(verdict)")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineHedging
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HedgingMiddleware over real loopback sockets")
struct HedgingLoopbackTests {
    @Test(
        "Over URLSession a stalled first request is hedged: the hedge's streamed body wins and the stalled one is cancelled"
    )
    func aStalledRequestIsHedgedOverRealSockets() async throws {
        let server = LoopbackServer()
        let chunks = (1...4).map { Data("part \($0) ".utf8) }
        server.route("GET", "/slow-once") { request in
            // The first attempt (told by its header, not by arrival: under load the hedge may
            // reach the server first) stalls far longer than any run of the test, a starved sanitizer
            // run included (one took over 60 s); the hedge streams its body.
            return request.header("X-Hedge-Attempt") == "1"
                ? LoopbackServer.Response(body: Data("stalled".utf8), delay: .seconds(3_600))
                : LoopbackServer.Response(body: .chunked(chunks, every: .milliseconds(5)))
        }
        try server.start()
        defer { server.stop() }
        let transport = EndRecordingTransport(URLSessionTransport())
        let pipeline = Pipeline(transport: transport) {
            HedgingMiddleware(policy: .after(.milliseconds(100)), budget: nil)
            AttemptHeader()
        }
        let response = try await pipeline.send(HTTPRequest(url: server.baseURL.appending(path: "slow-once")))
        let body = try await response.body.collect(upTo: 1 << 16)
        #expect(String(decoding: body, as: UTF8.self) == "part 1 part 2 part 3 part 4 ")
        #expect(server.requests.count == 2, "the stalled request and its hedge")
        // The stalled attempt ends cancelled, or, under a starved sanitizer run, with URLSession's
        // own URLError (cancelled, or its 60 s request timeout), possibly before the hedge's head.
        let ends = transport.ends
        #expect(ends.count == 2 && ends.contains(AttemptEnd(number: 2, outcome: "200")), "\(ends)")
        #expect(
            ends.contains { $0.number == 1 && ["cancelled", "URLError"].contains($0.outcome) },
            "the stalled request ended before the call returned: \(ends)")
    }
}

/// Writes the hedge attempt's number into `X-Hedge-Attempt`, for the server to tell attempts apart.
struct AttemptHeader: HTTPMiddleware {
    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        request.fields["X-Hedge-Attempt"] = String(request.context.hedgeAttempt ?? 0)
        return try await next(request)
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// A reply streaming `body` in 7-byte chunks, with `Content-Encoding: gzip` and no length, as a
/// chunked response arrives.
private func streamedGzipReply(_ status: Int, _ body: Data) -> ScriptedTransport.Reply {
    let chunks = stride(from: 0, to: body.count, by: 7).map { body[$0..<min($0 + 7, body.count)] }.map { Data($0) }
    return .streamed(status, headers: ["Content-Encoding": "gzip", "Content-Type": "application/json"], chunks: chunks)
}

/// Rows of the pair matrix where a streamed body changes the answer the buffered rows give.
@Suite struct PairMatrixStreamTests {
    @Test("R–G, corrupt streamed body on a 503: retried in either order, since decoding waits for the read")
    func aCorruptStreamedBodyOnARetryableStatusIsRetriedInEitherOrder() async throws {
        var outcomes: [PairOrder: PairOutcome] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "R–G streamed",
                zeroDelayRetry(),
                GzipMiddleware(),
                transport: ScriptedTransport([
                    streamedGzipReply(503, try corruptGzip(#"{"error":"busy, try again"}"#)),
                    streamedGzipReply(200, try gzipped(matrixJSON)),
                ])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.body == Data(matrixJSON.utf8), "\(label): the success is decoded")
            #expect(observed.sent.count == 2, "\(label): the 503 is retried: its corrupt body is never read")
            outcomes[order] = observed.outcome
        }
        #expect(outcomes[.firstOutside] == outcomes[.secondOutside], "R–G streamed: the same outcome in both orders")
    }

    @Test("L–R, streamed 503 bodies: inside retry each dropped 503 is logged as abandoned; outside, one record")
    func loggingInsideRetryRecordsDroppedStreamedBodiesAsAbandoned() async throws {
        var recordCounts: [PairOrder: Int] = [:]
        for order in PairOrder.allCases {
            let sink = InMemoryLogSink()
            let setup = PairSetup(
                "L–R streamed",
                LoggingMiddleware(level: .basic, sink: sink),
                zeroDelayRetry(),
                transport: ScriptedTransport([
                    .streamed(503, chunks: [Data("busy".utf8)]),
                    .streamed(200, chunks: [Data("ok".utf8)]),
                ]),
                sink: sink
            )
            let layers = setup.layers(order)
            let response = try await Pipeline(transport: setup.transport, middleware: layers).send(
                HTTPRequest(url: orderingURL))
            #expect(try await response.body.collect(upTo: 100) == Data("ok".utf8))
            let outcomes = sink.records.map(\.outcome)
            switch order {
            case .firstOutside:
                #expect(outcomes == [.response(status: 200)], "\(setup.label(order)): one record, the call's")
            case .secondOutside:
                #expect(
                    outcomes == [.bodyFailed(status: 503, kind: "abandoned"), .response(status: 200)],
                    "\(setup.label(order)): the retried 503's body was dropped unread")
            }
            recordCounts[order] = outcomes.count
        }
        #expect(recordCounts[.firstOutside] != recordCounts[.secondOutside])
    }
}

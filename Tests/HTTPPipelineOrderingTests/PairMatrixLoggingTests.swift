import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineLogging
import HTTPPipelineRedaction
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pairs with logging, headers excepted: L–A, L–R, L–G.
@Suite("Pair matrix: logging with auth, retry and gzip")
struct PairMatrixLoggingTests {
    // MARK: L–A

    @Test(
        "Logging inside auth records the redacted credential and the replay; logging outside records one exchange without it"
    )
    func loggingInsideAuthRecordsTheCredentialAndTheReplayLoggingOutsideRecordsOneExchange() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let sink = InMemoryLogSink()
            let setup = PairSetup(
                "L–A",
                LoggingMiddleware(level: .headers, sink: sink),
                matrixAuth(MatrixCredentials()),
                transport: ScriptedTransport([.status(401), .ok("{}")]),
                sink: sink
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): the replay succeeds")
            #expect(observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-1"], "\(label): the wire")
            #expect(!sink.text.contains("token-0") && !sink.text.contains("token-1"), "\(label): no token in the log")
            switch order {
            case .firstOutside:
                #expect(
                    observed.records.map(\.outcome) == [.response(status: 200)],
                    "\(label): one record, the final outcome")
                #expect(
                    observed.records.first?.requestHeader("Authorization") == nil,
                    "\(label): the log never shows a credential was sent")
            case .secondOutside:
                #expect(
                    observed.records.map(\.outcome) == [.response(status: 401), .response(status: 200)],
                    "\(label): the rejected exchange and the replay"
                )
                #expect(
                    observed.records.map { $0.requestHeader("Authorization") } == [Redaction.mark, Redaction.mark],
                    "\(label): each record shows the credential, redacted"
                )
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent == seen[.secondOutside]?.sent, "L–A: the wire is the same in both orders")
        #expect(
            seen[.firstOutside]?.records != seen[.secondOutside]?.records,
            "L–A: the records must differ between the orders")
    }

    // MARK: L–R

    @Test("Logging inside retry records every attempt with its number; logging outside records one exchange per call")
    func loggingInsideRetryRecordsEveryAttemptLoggingOutsideRecordsOnePerCall() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let sink = InMemoryLogSink()
            let setup = PairSetup(
                "L–R",
                LoggingMiddleware(level: .basic, sink: sink),
                zeroDelayRetry(),
                transport: ScriptedTransport([.status(503), .failure(URLError(.timedOut)), .ok("{}")]),
                sink: sink
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): the third attempt succeeds")
            #expect(observed.sent.count == 3, "\(label): three attempts on the wire")
            switch order {
            case .firstOutside:
                #expect(
                    observed.records.map(\.outcome) == [.response(status: 200)],
                    "\(label): one record, the final outcome")
                #expect(observed.records.map(\.attempt) == [nil], "\(label): no attempt number outside retry")
            case .secondOutside:
                #expect(
                    observed.records.map(\.outcome) == [
                        .response(status: 503), .failure(kind: "URLError.timedOut"), .response(status: 200),
                    ],
                    "\(label): one record per attempt"
                )
                #expect(observed.records.map(\.attempt) == [1, 2, 3], "\(label): each record has its attempt number")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent == seen[.secondOutside]?.sent, "L–R: the wire is the same in both orders")
        #expect(
            seen[.firstOutside]?.records != seen[.secondOutside]?.records,
            "L–R: the records must differ between the orders")
    }

    // MARK: L–G

    @Test(
        "Logging outside gzip sees the decoded body and no coding; inside it sees the wire bytes and Content-Encoding")
    func loggingOutsideGzipSeesTheDecodedBodyInsideItSeesTheWireBytes() async throws {
        let wire = try gzipped(matrixJSON)
        let plain = Data(matrixJSON.utf8)
        try #require(wire.count < plain.count, "the fixture must compress")
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let sink = InMemoryLogSink()
            let setup = PairSetup(
                "L–G",
                LoggingMiddleware(level: .headers, sink: sink),
                GzipMiddleware(),
                transport: ScriptedTransport([gzipReply(200, wire)]),
                sink: sink
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.body == plain, "\(label): the caller gets the decoded body")
            let record = try #require(observed.records.first, "\(label): one record")
            switch order {
            case .firstOutside:
                #expect(record.responseBytes == plain.count, "\(label): the log shows the decoded size")
                #expect(record.responseHeader("Content-Encoding") == nil, "\(label): the log shows no coding")
                #expect(record.responseHeader("Content-Length") == String(plain.count), "\(label): the decoded length")
                #expect(
                    record.requestHeader("Accept-Encoding") == nil,
                    "\(label): the log misses the Accept-Encoding gzip adds")
            case .secondOutside:
                #expect(record.responseBytes == wire.count, "\(label): the log shows the wire size")
                #expect(record.responseHeader("Content-Encoding") == "gzip", "\(label): the log shows the coding")
                #expect(record.responseHeader("Content-Length") == String(wire.count), "\(label): the wire length")
                #expect(
                    record.requestHeader("Accept-Encoding") == "gzip, deflate",
                    "\(label): the log shows Accept-Encoding as sent")
            }
            seen[order] = observed
        }
        #expect(
            seen[.firstOutside]?.outcome == seen[.secondOutside]?.outcome,
            "L–G: the caller gets the same response in both orders")
        #expect(seen[.firstOutside]?.sent == seen[.secondOutside]?.sent, "L–G: the wire is the same in both orders")
        #expect(
            seen[.firstOutside]?.records != seen[.secondOutside]?.records,
            "L–G: the records must differ between the orders")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pairs among auth, retry and gzip: A–R, A–G, R–G.
@Suite("Pair matrix: auth, retry and gzip")
struct PairMatrixAuthRetryGzipTests {
    // MARK: A–R

    @Test(
        "Retry outside auth sends a credential refreshed between attempts; auth outside retry replays the stale one and pays a 401"
    )
    func retryOutsideAuthSendsTheRefreshedCredentialOnTheNextAttemptAuthOutsideRetryReplaysTheStaleOne() async throws {
        var sent: [PairOrder: [String?]] = [:]
        for order in PairOrder.allCases {
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            let wallClock = Locked(start)
            let source = MatrixCredentials(initial: .bearer("token-0", expiresAt: start.addingTimeInterval(3_600)))
            let calls = Locked(0)
            // The first attempt meets a 503, and the token expires while it is out. The server
            // rejects the expired token with a 401 and accepts any other.
            let transport = ScriptedTransport { request in
                let call = calls.withLock { count in
                    count += 1
                    return count
                }
                if call == 1 {
                    wallClock.withLock { $0 = $0.addingTimeInterval(7_200) }
                    return .status(503)
                }
                return request.fields["Authorization"] == "Bearer token-0" ? .status(401) : .ok("{}")
            }
            let setup = PairSetup(
                "A–R", matrixAuth(source, now: { wallClock.value }), zeroDelayRetry(), transport: transport)
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): the call succeeds in the end")
            #expect(source.refreshes == 1, "\(label): one refresh")
            switch order {
            case .firstOutside:
                #expect(
                    observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-0", "Bearer token-1"],
                    "\(label): the second attempt replays the expired token, is rejected, and auth replays once more"
                )
            case .secondOutside:
                #expect(
                    observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-1"],
                    "\(label): the second attempt re-runs auth, which refreshes the expired token before sending"
                )
            }
            sent[order] = observed.sentHeader("Authorization")
        }
        #expect(sent[.firstOutside] != sent[.secondOutside], "A–R: the credentials sent must differ between the orders")
    }

    @Test("With 401 made retryable, retry outside auth refreshes on every attempt; auth outside retry refreshes once")
    func withA401RetryableRetryOutsideAuthRefreshesPerAttemptAuthOutsideRetryRefreshesOnce() async throws {
        var refreshes: [PairOrder: Int] = [:]
        for order in PairOrder.allCases {
            let source = MatrixCredentials()
            let setup = PairSetup(
                "A–R",
                matrixAuth(source),
                zeroDelayRetry(retrying: [401]),
                transport: ScriptedTransport { _ in .status(401) }
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 401, "\(label): the caller gets the 401")
            switch order {
            case .firstOutside:
                #expect(source.refreshes == 1, "\(label): auth replays the rejected call once")
                #expect(
                    observed.sentHeader("Authorization") == [
                        "Bearer token-0", "Bearer token-0", "Bearer token-0", "Bearer token-1", "Bearer token-1",
                        "Bearer token-1",
                    ],
                    "\(label): retry repeats the same token; auth replays the whole retried call once"
                )
            case .secondOutside:
                #expect(source.refreshes == 3, "\(label): every attempt refreshes")
                #expect(
                    observed.sentHeader("Authorization") == [
                        "Bearer token-0", "Bearer token-1", "Bearer token-1", "Bearer token-2", "Bearer token-2",
                        "Bearer token-3",
                    ],
                    "\(label): each attempt is a request and its replay"
                )
            }
            refreshes[order] = source.refreshes
        }
        #expect(
            refreshes[.firstOutside] != refreshes[.secondOutside],
            "A–R: the refresh counts must differ between the orders")
    }

    @Test("Auth and retry recover from a plain rejected token the same way in either order")
    func authAndRetryRecoverFromARejectedTokenTheSameWayInEitherOrder() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        var refreshes: [PairOrder: Int] = [:]
        for order in PairOrder.allCases {
            let source = MatrixCredentials()
            let setup = PairSetup(
                "A–R",
                matrixAuth(source),
                zeroDelayRetry(),
                transport: ScriptedTransport([.status(401), .status(503), .ok("{}")])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): the call recovers")
            #expect(
                observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-1", "Bearer token-1"],
                "\(label): the rejected token, then the refreshed one, retried after the 503"
            )
            seen[order] = observed
            refreshes[order] = source.refreshes
        }
        #expect(seen[.firstOutside] == seen[.secondOutside], "A–R: same outcome and same wire in both orders")
        #expect(refreshes[.firstOutside] == refreshes[.secondOutside], "A–R: same number of refreshes in both orders")
    }

    // MARK: A–G

    @Test("Auth and gzip commute for a rejected token and a compressed response")
    func authAndGzipCommuteForARejectedTokenAndACompressedResponse() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        var refreshes: [PairOrder: Int] = [:]
        for order in PairOrder.allCases {
            let source = MatrixCredentials()
            let setup = PairSetup(
                "A–G",
                matrixAuth(source),
                GzipMiddleware(),
                transport: ScriptedTransport([
                    gzipReply(401, try gzipped(#"{"error":"invalid_token"}"#)), gzipReply(200, try gzipped(matrixJSON)),
                ])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.body == Data(matrixJSON.utf8), "\(label): the replay's body, decoded")
            #expect(
                observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-1"],
                "\(label): refreshed and replayed")
            #expect(
                observed.sentHeader("Accept-Encoding") == ["gzip, deflate", "gzip, deflate"],
                "\(label): both ask for gzip")
            seen[order] = observed
            refreshes[order] = source.refreshes
        }
        #expect(seen[.firstOutside] == seen[.secondOutside], "A–G: same outcome and same wire in both orders")
        #expect(refreshes[.firstOutside] == refreshes[.secondOutside], "A–G: same number of refreshes in both orders")
    }

    @Test(
        "With request compression, a body-signing credential inside gzip signs the bytes sent; outside gzip it signs bytes never sent"
    )
    func withRequestCompressionABodySigningCredentialInsideGzipSignsTheBytesSentOutsideItDoesNot() async throws {
        let signer: @Sendable (Int) -> Credential = { number in
            Credential(
                token: "key-\(number)",
                scheme: .custom(name: "X-Signature") { request, token in
                    request.fields["X-Signature"] = bodySignature(request.body?.bufferedData, token: token)
                })
        }
        let body = Data(matrixJSON.utf8)
        var matches: [PairOrder: Bool] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "A–G",
                matrixAuth(MatrixCredentials(initial: signer(0), make: signer)),
                GzipMiddleware(.default.compressingRequestBodies(largerThan: 16)),
                transport: ScriptedTransport([.status(204)])
            )
            let request = HTTPRequest(method: .put, url: orderingURL, body: HTTPBody(body))
            let observed = await setup.observe(order, request)
            let label = setup.label(order)
            let wire = try #require(observed.sent.first, "\(label): one request sent")
            #expect(wire.header("Content-Encoding") == "gzip", "\(label): the body is compressed")
            #expect(wire.body != body, "\(label): the wire body is not the plain body")
            let signsWire = wire.header("X-Signature") == bodySignature(wire.body, token: "key-0")
            switch order {
            case .firstOutside:
                #expect(!signsWire, "\(label): the signature covers the plain body, not the bytes sent")
                #expect(
                    wire.header("X-Signature") == bodySignature(body, token: "key-0"),
                    "\(label): it signed the plain body")
            case .secondOutside:
                #expect(signsWire, "\(label): the signature covers the compressed bytes sent")
            }
            matches[order] = signsWire
        }
        #expect(
            matches[.firstOutside] != matches[.secondOutside],
            "A–G: whether the signature matches the wire must differ between the orders")
    }

    // MARK: R–G

    @Test("Retry and gzip commute for retryable statuses with intact compressed bodies")
    func retryAndGzipCommuteForRetryableStatusesWithIntactBodies() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "R–G",
                zeroDelayRetry(),
                GzipMiddleware(),
                transport: ScriptedTransport([
                    gzipReply(503, try gzipped(#"{"error":"busy"}"#)),
                    .failure(URLError(.networkConnectionLost)),
                    gzipReply(200, try gzipped(matrixJSON)),
                ])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.body == Data(matrixJSON.utf8), "\(label): the third attempt's body, decoded")
            #expect(observed.sent.count == 3, "\(label): three attempts")
            seen[order] = observed
        }
        #expect(seen[.firstOutside] == seen[.secondOutside], "R–G: same outcome and same wire in both orders")
    }

    @Test("A corrupt compressed body on a success fails at once in either order of retry and gzip")
    func aCorruptBodyOnASuccessFailsAtOnceInEitherOrder() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "R–G",
                zeroDelayRetry(),
                GzipMiddleware(),
                transport: ScriptedTransport([gzipReply(200, try corruptGzip(matrixJSON)), .ok("{}")])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == nil, "\(label): the caller gets an error, not a body")
            #expect(
                observed.outcome.description.contains("GzipError"), "\(label): a GzipError, got \(observed.outcome)")
            #expect(observed.sent.count == 1, "\(label): not retried")
            seen[order] = observed
        }
        #expect(seen[.firstOutside] == seen[.secondOutside], "R–G: same error and same wire in both orders")
    }

    @Test("A corrupt body on a retryable status is retried with gzip outside retry, and fails at once with gzip inside")
    func aCorruptBodyOnARetryableStatusIsRetriedWithGzipOutsideRetryAndFailsWithGzipInside() async throws {
        var outcomes: [PairOrder: PairOutcome] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "R–G",
                zeroDelayRetry(),
                GzipMiddleware(),
                transport: ScriptedTransport([
                    gzipReply(503, try corruptGzip(#"{"error":"busy, try again"}"#)),
                    gzipReply(200, try gzipped(matrixJSON)),
                ])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            switch order {
            case .firstOutside:
                #expect(
                    observed.outcome.description.contains("GzipError"),
                    "\(label): decoding the 503's body throws, got \(observed.outcome)")
                #expect(observed.sent.count == 1, "\(label): retry sees an error it does not retry, not a 503")
            case .secondOutside:
                #expect(
                    observed.outcome.body == Data(matrixJSON.utf8),
                    "\(label): retry sees the 503, retries, and the success is decoded")
                #expect(observed.sent.count == 2, "\(label): two attempts")
            }
            outcomes[order] = observed.outcome
        }
        #expect(
            outcomes[.firstOutside] != outcomes[.secondOutside],
            "R–G: the caller's outcome must differ between the orders")
    }
}

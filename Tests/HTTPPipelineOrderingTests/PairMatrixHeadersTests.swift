import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pairs with default headers: H–L, H–A, H–R, H–G.
@Suite("Pair matrix: default headers with each other plugin")
struct PairMatrixHeadersTests {
    // MARK: H–L

    @Test("Logging inside default headers records them; logging outside does not, though the same headers are sent")
    func loggingInsideDefaultHeadersRecordsThemLoggingOutsideDoesNot() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let sink = InMemoryLogSink()
            let setup = PairSetup(
                "H–L",
                try DefaultHeaders([.fixed("User-Agent", "Shelf/2.3"), .fixed("Accept", "application/json")]),
                LoggingMiddleware(level: .headers, sink: sink),
                transport: ScriptedTransport([.ok("{}")]),
                sink: sink
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(
                observed.sentHeader("User-Agent") == ["Shelf/2.3"], "\(label): the transport gets the default header")
            #expect(observed.records.count == 1, "\(label): one record")
            let logged = observed.records.first?.requestHeader("User-Agent")
            switch order {
            case .firstOutside:
                #expect(logged == "Shelf/2.3", "\(label): the log shows the default header that was sent")
                #expect(
                    observed.records.first?.requestHeader("Accept") == "application/json",
                    "\(label): the log shows Accept")
            case .secondOutside:
                #expect(logged == nil, "\(label): the log misses the default header")
                #expect(observed.records.first?.requestHeaders == [], "\(label): the log shows no header at all")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent == seen[.secondOutside]?.sent, "H–L: the wire is the same in both orders")
        #expect(
            seen[.firstOutside]?.records != seen[.secondOutside]?.records,
            "H–L: the records must differ between DefaultHeaders outside LoggingMiddleware and LoggingMiddleware outside DefaultHeaders"
        )
    }

    // MARK: H–A

    @Test(
        "Default headers and auth commute when no default header is named Authorization, even across a refresh and replay"
    )
    func defaultHeadersAndAuthCommuteWhenNoDefaultHeaderIsAuthorization() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        var refreshes: [PairOrder: Int] = [:]
        for order in PairOrder.allCases {
            let source = MatrixCredentials()
            let setup = PairSetup(
                "H–A",
                try DefaultHeaders([.fixed("User-Agent", "Shelf/2.3"), .fixed("Accept", "application/json")]),
                matrixAuth(source),
                transport: ScriptedTransport([.status(401), .ok("{}")])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): the replay succeeds")
            #expect(
                observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-1"],
                "\(label): credential, then the refreshed one")
            #expect(
                observed.sentHeader("User-Agent") == ["Shelf/2.3", "Shelf/2.3"],
                "\(label): both requests carry the default header")
            seen[order] = observed
            refreshes[order] = source.refreshes
        }
        #expect(seen[.firstOutside] == seen[.secondOutside], "H–A: same outcome and same wire in both orders")
        #expect(refreshes[.firstOutside] == refreshes[.secondOutside], "H–A: same number of refreshes in both orders")
    }

    @Test("A default Authorization header outside auth pre-empts the credential; inside auth the credential wins")
    func aDefaultAuthorizationHeaderOutsideAuthPreemptsTheCredentialInsideItDoesNot() async throws {
        var sent: [PairOrder: [String?]] = [:]
        for order in PairOrder.allCases {
            let source = MatrixCredentials()
            let setup = PairSetup(
                "H–A",
                try DefaultHeaders([.fixed("Authorization", "Basic ZGVtbzpkZW1v")]),
                matrixAuth(source),
                transport: ScriptedTransport([.status(401), .ok("{}")])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            switch order {
            case .firstOutside:
                // Auth leaves a request that already carries its header alone: no credential, no refresh.
                #expect(
                    observed.sentHeader("Authorization") == ["Basic ZGVtbzpkZW1v"],
                    "\(label): the default header is sent instead of the credential")
                #expect(observed.outcome.status == 401, "\(label): the 401 reaches the caller; auth does not handle it")
                #expect(source.refreshes == 0, "\(label): auth never refreshes")
            case .secondOutside:
                #expect(
                    observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-1"],
                    "\(label): the credential is sent, the default skipped")
                #expect(observed.outcome.status == 200, "\(label): auth refreshes and replays")
                #expect(source.refreshes == 1, "\(label): one refresh")
            }
            sent[order] = observed.sentHeader("Authorization")
        }
        #expect(
            sent[.firstOutside] != sent[.secondOutside], "H–A: the Authorization sent must differ between the orders")
    }

    @Test(
        "An overriding Authorization default header reaches the wire in both orders, but only inside auth does auth still refresh"
    )
    func anOverridingAuthorizationDefaultHeaderWinsInBothOrdersButOnlyInsideAuthIsARefreshWasted() async throws {
        var refreshes: [PairOrder: Int] = [:]
        var sentCount: [PairOrder: Int] = [:]
        for order in PairOrder.allCases {
            let source = MatrixCredentials()
            let setup = PairSetup(
                "H–A",
                try DefaultHeaders([.fixed("Authorization", "Basic ZGVtbzpkZW1v", policy: .override)]),
                matrixAuth(source),
                transport: ScriptedTransport([.status(401), .status(401)])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 401, "\(label): the caller gets the 401")
            #expect(
                observed.sentHeader("Authorization").allSatisfy { $0 == "Basic ZGVtbzpkZW1v" },
                "\(label): the overriding default header is what reaches the wire, every time"
            )
            switch order {
            case .firstOutside:
                #expect(observed.sent.count == 1, "\(label): auth steps aside, so nothing is replayed")
                #expect(source.refreshes == 0, "\(label): no refresh")
            case .secondOutside:
                #expect(observed.sent.count == 2, "\(label): auth replays the clobbered request once")
                #expect(source.refreshes == 1, "\(label): auth refreshes a credential that was never sent")
            }
            refreshes[order] = source.refreshes
            sentCount[order] = observed.sent.count
        }
        #expect(
            refreshes[.firstOutside] != refreshes[.secondOutside],
            "H–A: the refresh counts must differ between the orders")
        #expect(
            sentCount[.firstOutside] != sentCount[.secondOutside],
            "H–A: the request counts must differ between the orders")
    }

    @Test("A computed header outside auth is the same on the replay; inside auth it is computed again for the replay")
    func aComputedHeaderOutsideAuthIsKeptForTheReplayInsideAuthItIsRecomputed() async throws {
        var ids: [PairOrder: [String?]] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "H–A",
                try DefaultHeaders([countingHeader("X-Request-ID", prefix: "req")]),
                matrixAuth(MatrixCredentials()),
                transport: ScriptedTransport([.status(401), .ok("{}")])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): the replay succeeds")
            switch order {
            case .firstOutside:
                #expect(
                    observed.sentHeader("X-Request-ID") == ["req-1", "req-1"],
                    "\(label): one ID for the request and its replay")
            case .secondOutside:
                #expect(
                    observed.sentHeader("X-Request-ID") == ["req-1", "req-2"], "\(label): the replay gets a new ID")
            }
            ids[order] = observed.sentHeader("X-Request-ID")
        }
        #expect(ids[.firstOutside] != ids[.secondOutside], "H–A: the request IDs must differ between the orders")
    }

    // MARK: H–R

    @Test("Computed headers outside retry are the same on every attempt; inside retry each attempt gets a fresh value")
    func computedHeadersOutsideRetryRepeatOnEveryAttemptInsideRetryAreFresh() async throws {
        var ids: [PairOrder: [String?]] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "H–R",
                try DefaultHeaders([countingHeader("X-Request-ID", prefix: "req")]),
                zeroDelayRetry(),
                transport: ScriptedTransport([.status(503), .status(503), .ok("{}")])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): the third attempt succeeds")
            switch order {
            case .firstOutside:
                #expect(
                    observed.sentHeader("X-Request-ID") == ["req-1", "req-1", "req-1"],
                    "\(label): one ID for all attempts")
            case .secondOutside:
                #expect(
                    observed.sentHeader("X-Request-ID") == ["req-1", "req-2", "req-3"],
                    "\(label): a fresh ID per attempt")
            }
            ids[order] = observed.sentHeader("X-Request-ID")
        }
        #expect(ids[.firstOutside] != ids[.secondOutside], "H–R: the IDs sent must differ between the orders")
    }

    @Test("Fixed default headers are the same on every attempt in either order of headers and retry")
    func fixedDefaultHeadersAndRetryCommute() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "H–R",
                try DefaultHeaders([.fixed("User-Agent", "Shelf/2.3"), .fixed("Accept", "application/json")]),
                zeroDelayRetry(),
                transport: ScriptedTransport([.status(503), .failure(URLError(.networkConnectionLost)), .ok("{}")])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label): the third attempt succeeds")
            #expect(
                observed.sentHeader("User-Agent") == ["Shelf/2.3", "Shelf/2.3", "Shelf/2.3"],
                "\(label): every attempt carries the header")
            seen[order] = observed
        }
        #expect(seen[.firstOutside] == seen[.secondOutside], "H–R: same outcome and same wire in both orders")
    }

    @Test("A default Idempotency-Key outside retry makes a POST retryable; inside retry the POST is sent once")
    func aDefaultIdempotencyKeyOutsideRetryMakesAPostRetryableInsideRetryItDoesNot() async throws {
        var statuses: [PairOrder: Int?] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "H–R",
                try DefaultHeaders([countingHeader("Idempotency-Key", prefix: "key")]),
                zeroDelayRetry(),
                transport: ScriptedTransport([.status(503), .status(201)])
            )
            let request = HTTPRequest(method: .post, url: orderingURL, body: HTTPBody(Data(#"{"title":"Dune"}"#.utf8)))
            let observed = await setup.observe(order, request)
            let label = setup.label(order)
            switch order {
            case .firstOutside:
                #expect(observed.outcome.status == 201, "\(label): retry sees the key and retries the POST")
                #expect(
                    observed.sentHeader("Idempotency-Key") == ["key-1", "key-1"],
                    "\(label): both attempts share one key")
            case .secondOutside:
                #expect(observed.outcome.status == 503, "\(label): retry sees no key, so the POST is not replayable")
                #expect(observed.sentHeader("Idempotency-Key") == ["key-1"], "\(label): sent once")
            }
            statuses[order] = observed.outcome.status
        }
        #expect(
            statuses[.firstOutside] != statuses[.secondOutside],
            "H–R: the caller's status must differ between the orders")
    }

    // MARK: H–G

    @Test("Default headers and gzip commute when no default header is Accept-Encoding")
    func defaultHeadersAndGzipCommuteWhenNoDefaultHeaderIsAcceptEncoding() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "H–G",
                try DefaultHeaders([.fixed("User-Agent", "Shelf/2.3"), .fixed("Accept", "application/json")]),
                GzipMiddleware(),
                transport: ScriptedTransport([gzipReply(200, try gzipped(matrixJSON))])
            )
            let observed = await setup.observe(order)
            let label = setup.label(order)
            #expect(observed.outcome.body == Data(matrixJSON.utf8), "\(label): the caller gets the decoded body")
            #expect(observed.sentHeader("Accept-Encoding") == ["gzip, deflate"], "\(label): gzip asks for compression")
            #expect(observed.sentHeader("User-Agent") == ["Shelf/2.3"], "\(label): the default header is sent")
            seen[order] = observed
        }
        #expect(seen[.firstOutside] == seen[.secondOutside], "H–G: same outcome and same wire in both orders")
    }

    @Test("When default headers and gzip both set Accept-Encoding, the outer one decides what is sent")
    func theOuterOfDefaultHeadersAndGzipDecidesAcceptEncoding() async throws {
        for policy in [DefaultHeaders.Policy.setIfMissing, .append] {
            var sent: [PairOrder: [String?]] = [:]
            for order in PairOrder.allCases {
                let setup = PairSetup(
                    "H–G",
                    try DefaultHeaders([.fixed("Accept-Encoding", "br", policy: policy)]),
                    GzipMiddleware(),
                    transport: ScriptedTransport([.ok("{}")])
                )
                let observed = await setup.observe(order)
                let label = "\(setup.label(order)), policy \(policy)"
                switch (order, policy) {
                case (.firstOutside, _):
                    #expect(
                        observed.sentHeader("Accept-Encoding") == ["br"],
                        "\(label): the default header is set first and gzip keeps it")
                case (.secondOutside, .append):
                    #expect(
                        observed.sentHeader("Accept-Encoding") == ["gzip, deflate, br"],
                        "\(label): gzip sets its value first, headers append")
                case (.secondOutside, _):
                    #expect(
                        observed.sentHeader("Accept-Encoding") == ["gzip, deflate"],
                        "\(label): gzip sets its value first and headers keep it")
                }
                sent[order] = observed.sentHeader("Accept-Encoding")
            }
            #expect(
                sent[.firstOutside] != sent[.secondOutside],
                "H–G, policy \(policy): Accept-Encoding must differ between the orders")
        }
    }
}

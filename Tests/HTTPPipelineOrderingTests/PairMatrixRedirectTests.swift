import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRedirect
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// The pairs with redirects (**D**): D–H, D–L, D–A, D–R, D–G. Redirect is the first of each pair:
/// `firstOutside` lists `RedirectMiddleware` first.
@Suite("Pair matrix: redirects with each other plugin")
struct PairMatrixRedirectTests {
    static let start = "https://api.example.invalid/books/1"
    static let elsewhere = "https://cdn.example.invalid/books/1"

    /// `start` answers `status` with a `Location` on `target`; everything else answers `final`.
    static func redirecting(
        _ status: Int = 302, to target: String = elsewhere,
        final: @escaping @Sendable (HTTPRequest) -> ScriptedTransport.Reply
    ) -> ScriptedTransport {
        ScriptedTransport { request in
            request.url.absoluteString == start
                ? .status(status, headers: ["Location": target], body: Data("moved".utf8)) : final(request)
        }
    }

    // MARK: D–H

    @Test(
        "A default API key outside redirects is dropped on a hop to another origin; inside redirects it is added to every hop"
    )
    func aListedDefaultHeaderOutsideRedirectsIsDroppedAcrossOriginsInsideItIsAddedToEveryHop() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let setup = PairSetup(
                "D–H",
                RedirectMiddleware(policy: RedirectPolicy(strippedAcrossOrigins: ["X-API-Key"])),
                try DefaultHeaders([.fixed("X-API-Key", "k3y"), .fixed("User-Agent", "Shelf/2.3")]),
                transport: Self.redirecting { _ in .ok("{}") })
            let observed = await setup.observe(order, HTTPRequest(url: url(Self.start)))
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label)")
            #expect(observed.sentHeader("User-Agent") == ["Shelf/2.3", "Shelf/2.3"], "\(label): other defaults go on")
            switch order {
            case .firstOutside:
                #expect(
                    observed.sentHeader("X-API-Key") == ["k3y", "k3y"], "\(label): the key reaches the other origin")
            case .secondOutside:
                #expect(observed.sentHeader("X-API-Key") == ["k3y", nil], "\(label): the key stays with its origin")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent != seen[.secondOutside]?.sent, "D–H: the wire must differ")
    }

    // MARK: D–L

    @Test("Logging inside redirects records every hop; logging outside records one exchange per call")
    func loggingInsideRedirectsRecordsEveryHopLoggingOutsideRecordsOnePerCall() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let sink = InMemoryLogSink()
            let setup = PairSetup(
                "D–L", RedirectMiddleware(), LoggingMiddleware(level: .basic, sink: sink),
                transport: Self.redirecting { _ in .ok("{}") }, sink: sink)
            let observed = await setup.observe(order, HTTPRequest(url: url(Self.start)))
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label)")
            #expect(observed.sent.map(\.url) == [Self.start, Self.elsewhere], "\(label): two hops on the wire")
            switch order {
            case .firstOutside:
                #expect(
                    observed.records.map(\.outcome) == [.response(status: 302), .response(status: 200)], "\(label)")
                #expect(observed.records.map(\.url) == [Self.start, Self.elsewhere], "\(label): each hop's URL")
            case .secondOutside:
                #expect(observed.records.map(\.outcome) == [.response(status: 200)], "\(label): the final status")
                #expect(observed.records.map(\.url) == [Self.start], "\(label): under the first URL")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent == seen[.secondOutside]?.sent, "D–L: the wire is the same in both orders")
        #expect(seen[.firstOutside]?.records != seen[.secondOutside]?.records, "D–L: the records must differ")
    }

    // MARK: D–A

    @Test("Redirects and auth send the credential on both hops of a same-origin redirect, in either order")
    func redirectsAndAuthSendTheCredentialOnASameOriginHopInEitherOrder() async throws {
        var seen: [PairOrder: (PairObservation, Int)] = [:]
        for order in PairOrder.allCases {
            let source = MatrixCredentials()
            let setup = PairSetup(
                "D–A", RedirectMiddleware(), matrixAuth(source),
                transport: Self.redirecting(307, to: "/books/2") { _ in .ok("{}") })
            let observed = await setup.observe(order, HTTPRequest(url: url(Self.start)))
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label)")
            #expect(observed.sentHeader("Authorization") == ["Bearer token-0", "Bearer token-0"], "\(label)")
            seen[order] = (observed, source.refreshes)
        }
        #expect(seen[.firstOutside]?.0 == seen[.secondOutside]?.0, "D–A: same wire and outcome")
        #expect(seen[.firstOutside]?.1 == seen[.secondOutside]?.1, "D–A: same refreshes")
    }

    @Test(
        "A 401 from another origin refreshes nothing with auth inside redirects; with auth outside it refreshes and replays the chain"
    )
    func aCrossOriginUnauthorizedRefreshesNothingWithAuthInsideAndReplaysTheChainWithAuthOutside() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let source = MatrixCredentials()
            let setup = PairSetup(
                "D–A", RedirectMiddleware(), matrixAuth(source),
                transport: Self.redirecting { _ in .status(401) })
            let observed = await setup.observe(order, HTTPRequest(url: url(Self.start)))
            let label = setup.label(order)
            #expect(observed.outcome.status == 401, "\(label): the other origin's 401 is returned")
            switch order {
            case .firstOutside:
                #expect(observed.sentHeader("Authorization") == ["Bearer token-0", nil], "\(label)")
                #expect(source.refreshes == 0, "\(label): not this credential's origin, no refresh")
            case .secondOutside:
                #expect(
                    observed.sentHeader("Authorization") == ["Bearer token-0", nil, "Bearer token-1", nil],
                    "\(label): the whole chain again, the credential still dropped across origins")
                #expect(source.refreshes == 1, "\(label): a refresh for another origin's 401")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent != seen[.secondOutside]?.sent, "D–A: the wire must differ")
    }

    // MARK: D–R

    @Test("Retry inside redirects retries the failing hop; retry outside starts the chain again from its first URL")
    func retryInsideRedirectsRetriesTheFailingHopRetryOutsideRestartsTheChain() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let answers = Locked(0)
            let setup = PairSetup(
                "D–R", RedirectMiddleware(), zeroDelayRetry(),
                transport: Self.redirecting { _ in
                    answers.withLock { count in
                        count += 1
                        return count == 1 ? .status(503) : .ok("{}")
                    }
                })
            let observed = await setup.observe(order, HTTPRequest(url: url(Self.start)))
            let label = setup.label(order)
            #expect(observed.outcome.status == 200, "\(label)")
            switch order {
            case .firstOutside:
                #expect(observed.sent.map(\.url) == [Self.start, Self.elsewhere, Self.elsewhere], "\(label)")
            case .secondOutside:
                #expect(
                    observed.sent.map(\.url) == [Self.start, Self.elsewhere, Self.start, Self.elsewhere], "\(label)")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.sent != seen[.secondOutside]?.sent, "D–R: the wire must differ")
    }

    @Test(
        "After a 303 from a POST, retry inside redirects retries the GET hop's 503; retry outside sees a POST and does not"
    )
    func retryInsideRedirectsRetriesTheGetHopOfAPostRetryOutsideDoesNot() async throws {
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let answers = Locked(0)
            let setup = PairSetup(
                "D–R", RedirectMiddleware(), zeroDelayRetry(),
                transport: Self.redirecting(303) { _ in
                    answers.withLock { count in
                        count += 1
                        return count == 1 ? .status(503) : .ok("{}")
                    }
                })
            let post = HTTPRequest(method: .post, url: url(Self.start), body: HTTPBody(Data("{}".utf8)))
            let observed = await setup.observe(order, post)
            let label = setup.label(order)
            switch order {
            case .firstOutside:
                #expect(observed.outcome.status == 200, "\(label): the GET is retried")
                #expect(observed.sent.map(\.method) == ["POST", "GET", "GET"], "\(label)")
            case .secondOutside:
                #expect(observed.outcome.status == 503, "\(label): a POST is not retried")
                #expect(observed.sent.map(\.method) == ["POST", "GET"], "\(label)")
            }
            seen[order] = observed
        }
        #expect(seen[.firstOutside]?.outcome != seen[.secondOutside]?.outcome, "D–R: the outcome must differ")
    }

    // MARK: D–G

    @Test("Redirects and gzip commute: the same wire and the same decoded final body, the redirect's body dropped")
    func redirectsAndGzipCommuteForACompressedRedirectAndACompressedFinalBody() async throws {
        let moved = try gzipped(#"{"moved":true}"#)
        let final = try gzipped(matrixJSON)
        var seen: [PairOrder: PairObservation] = [:]
        for order in PairOrder.allCases {
            let transport = ScriptedTransport { request in
                request.url.absoluteString == Self.start
                    ? .status(
                        302,
                        headers: [
                            "Location": Self.elsewhere, "Content-Encoding": "gzip",
                            "Content-Length": String(moved.count),
                        ], body: moved)
                    : gzipReply(200, final)
            }
            let setup = PairSetup("D–G", RedirectMiddleware(), GzipMiddleware(), transport: transport)
            let observed = await setup.observe(order, HTTPRequest(url: url(Self.start)))
            let label = setup.label(order)
            #expect(observed.outcome.body == Data(matrixJSON.utf8), "\(label): the final body, decoded")
            #expect(observed.sentHeader("Accept-Encoding") == ["gzip, deflate", "gzip, deflate"], "\(label)")
            seen[order] = observed
        }
        #expect(seen[.firstOutside] == seen[.secondOutside], "D–G: everything observed is the same")
    }
}

/// An absolute URL from a literal the test wrote.
private func url(_ text: String) -> URL {
    URL(string: text) ?? orderingURL
}

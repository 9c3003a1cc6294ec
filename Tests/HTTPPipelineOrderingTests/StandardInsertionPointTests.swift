import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineGzip
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import Testing

/// Your own middleware at the standard stack's named insertion points: where each point sits,
/// what a layer there sees, and that the stack with nothing inserted is unchanged.
@Suite struct StandardInsertionPointTests {
    struct Tokens: CredentialSource {
        func currentCredential() async throws -> Credential? { .bearer("old-token") }
        func refreshCredential(after failed: Credential?) async throws -> Credential { .bearer("new-token") }
    }

    static let points: [(StandardOptions.InsertionPoint, String)] = [
        (.outermost, "outermost"), (.outsideRetry, "outsideRetry"), (.insideRetry, "insideRetry"),
        (.insideAuth, "insideAuth"), (.beforeTransport, "beforeTransport"),
    ]

    func options(logging sink: InMemoryLogSink = InMemoryLogSink()) -> StandardOptions {
        StandardOptions(
            headers: [.fixed("User-Agent", "Shelf/2.3")],
            retry: .attempts(3, backoff: .immediate),
            credentials: Tokens(),
            logging: .init(level: .headers, sink: sink),
            clock: ManualClock()
        )
    }

    /// 503 once, then 401 to any token but the new one, then a gzip body.
    static func server() throws -> ScriptedTransport {
        let compressed = try Deflater.compress(Data("hello".utf8), format: .gzip)
        let calls = Locked(0)
        return ScriptedTransport { request in
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            if call == 1 { return .status(503) }
            if request.fields["Authorization"] != "Bearer new-token" { return .status(401) }
            return .status(200, headers: ["Content-Encoding": "gzip"], body: compressed)
        }
    }

    @Test func eachPointSitsNextToTheLayerItIsNamedAfter() throws {
        var options = options()
        for (point, name) in Self.points { options.insert(Spy(name), at: point) }
        let pipeline = try StandardPipeline.build(over: ScriptedTransport([]), options: options)
        #expect(
            pipeline.description
                == "Pipeline(outermost -> DefaultHeaders -> ConcurrencyLimitMiddleware -> outsideRetry -> RedirectMiddleware -> RetryMiddleware -> insideRetry -> AuthMiddleware -> insideAuth -> LoggingMiddleware -> GzipMiddleware -> beforeTransport -> ScriptedTransport)"
        )
        #expect(Self.points.map { "\($0.0)" } == Self.points.map(\.1))
    }

    @Test func pointsKeepTheirOrderWhenPluginsAreLeftOut() throws {
        var options = StandardOptions(concurrencyLimit: nil, redirects: nil, retry: nil, gzip: nil)
        for (point, name) in Self.points.reversed() { options.insert(Spy(name), at: point) }
        let pipeline = try StandardPipeline.build(over: ScriptedTransport([]), options: options)
        #expect(pipeline.layerNames == Self.points.map(\.1))
    }

    @Test func layersInsertedAtOnePointRunInTheOrderInserted() async throws {
        let log = OrderLog()
        var options = StandardOptions(retry: nil, gzip: nil)
        options.insert(OrderProbe("first", log: log), at: .insideAuth)
        options.insert(OrderProbe("second", log: log), at: .insideAuth)
        options.insert(OrderProbe("third", log: log), at: .insideAuth)
        let pipeline = try StandardPipeline.build(over: ScriptedTransport([.status(200)]), options: options)
        _ = try await pipeline.send(HTTPRequest(url: orderingURL))
        #expect(log.layers(.request) == ["first", "second", "third"])
        #expect(log.layers(.response) == ["third", "second", "first"])
    }

    @Test func aStackWithNothingInsertedHasOnlyTheBuiltInLayers() throws {
        let pipeline = try StandardPipeline.build(over: ScriptedTransport([]), options: options())
        #expect(
            pipeline.layerNames == [
                "DefaultHeaders", "ConcurrencyLimitMiddleware", "RedirectMiddleware", "RetryMiddleware",
                "AuthMiddleware", "LoggingMiddleware", "GzipMiddleware",
            ])
        #expect(pipeline.orderingDiagnostics.isEmpty)
    }

    @Test func aSignerInsideAuthSignsEveryCredentialSentAndOutsideRetryItSignsNone() async throws {
        let sink = InMemoryLogSink()
        var inside = options(logging: sink)
        inside.insert(RequestSigner(), at: .insideAuth)
        let server = try Self.server()
        let pipeline = try StandardPipeline.build(over: server, options: inside)
        let response = try await pipeline.send(HTTPRequest(url: orderingURL))
        #expect(try await response.body.collect(upTo: 1 << 10) == Data("hello".utf8))
        #expect(pipeline.orderingDiagnostics.isEmpty, "\(pipeline.orderingDiagnostics)")
        #expect(
            server.requests.map { $0.fields["Authorization"] } == [
                "Bearer old-token", "Bearer old-token", "Bearer new-token",
            ])
        #expect(server.requests.allSatisfy(RequestSigner.isSigned), "the replay after the refresh is signed again")
        #expect(
            sink.records.allSatisfy { $0.requestHeaders.contains { $0.name == "X-Signature" } },
            "logging shows the signature it was sent with")

        var outside = options()
        outside.insert(RequestSigner(), at: .outsideRetry)
        let other = try Self.server()
        let misplaced = try StandardPipeline.build(over: other, options: outside)
        _ = try await misplaced.send(HTTPRequest(url: orderingURL))
        #expect(other.requests.count == 3)
        #expect(!other.requests.contains(where: RequestSigner.isSigned), "signed before the credential was attached")
        #expect(
            misplaced.orderingDiagnostics.map { "\($0.layer) \($0.expectation.role) \($0.other)" } == [
                "RequestSigner auth AuthMiddleware"
            ])
    }

    @Test func insideRetryRunsPerAttemptAndOutsideRetryOncePerCall() async throws {
        var options = options()
        let perCall = Spy("perCall")
        let perAttempt = Spy("perAttempt")
        options.insert(perCall, at: .outsideRetry)
        options.insert(perAttempt, at: .insideRetry)
        let pipeline = try StandardPipeline.build(over: try Self.server(), options: options)
        _ = try await pipeline.send(HTTPRequest(url: orderingURL))
        #expect(perCall.requests.count == 1)
        #expect(perCall.requests.first?.fields["User-Agent"] == "Shelf/2.3", "it sees the default headers")
        #expect(perAttempt.requests.count == 2, "the 503's attempt, then the attempt auth refreshes and replays")
        #expect(perAttempt.requests.allSatisfy { $0.fields["Authorization"] == nil }, "it runs before auth")
    }

    @Test func outermostSeesTheCallersRequestAndBeforeTransportSeesTheWire() async throws {
        var options = options()
        let outermost = Spy("outermost")
        let wire = Spy("wire")
        options.insert(outermost, at: .outermost)
        options.insert(wire, at: .beforeTransport)
        let pipeline = try StandardPipeline.build(over: try Self.server(), options: options)
        _ = try await pipeline.send(HTTPRequest(url: orderingURL))
        #expect(outermost.requests.map { $0.fields["User-Agent"] } == [nil], "before default headers")
        #expect(outermost.responses.map { $0.fields["Content-Encoding"] } == [nil], "the decoded response")
        #expect(wire.requests.count == 3)
        #expect(wire.requests.allSatisfy { $0.fields["Accept-Encoding"] == "gzip, deflate" })
        #expect(wire.responses.last?.fields["Content-Encoding"] == "gzip", "the wire bytes, not yet decoded")
    }

    @Test(arguments: [false, true])
    func theStandardStackBindsEachLayerWhenBuiltWithAndWithoutInsertions(inserting: Bool) throws {
        var options = options()
        if inserting { options.insert(OrderProbe("mine", log: OrderLog()), at: .insideAuth) }
        let client = try StandardPipeline.build(
            over: ScriptedTransport(respond: { _ in .ok("body") }), options: options)
        #expect(bindsWhenBuilt(type(of: client.middleware)))
    }
}

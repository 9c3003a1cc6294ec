import Foundation
import HTTPPipeline
import HTTPPipelineRedirect
import HTTPPipelineTesting
import Synchronization
import Testing

/// Hop limits, loops and what one call can ask for.
@Suite struct RedirectLimitTests {
    /// `/0` redirects to `/1`, … `/(n-1)` to `/n`, which answers 200.
    func chain(_ hops: Int) -> ScriptedTransport {
        var replies: [String: ScriptedTransport.Reply] = [:]
        for index in 0..<hops { replies["https://api.example.invalid/\(index)"] = redirect(302, to: "/\(index + 1)") }
        return transport(replies)
    }

    @Test func tenRedirectsAreFollowedByDefault() async throws {
        let transport = chain(10)
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(HTTPRequest(url: url("https://api.example.invalid/0")))
        #expect(response.status == 200)
        #expect(transport.requests.count == 11)
    }

    @Test func anEleventhRedirectThrowsTooManyRedirectsAndIsNotFollowed() async throws {
        let transport = chain(11)
        let error = await redirectError(HTTPRequest(url: url("https://api.example.invalid/0")), over: transport)
        #expect(error == .tooManyRedirects(limit: 10))
        #expect(transport.requests.count == 11, "the eleventh redirect's target is never asked")
    }

    @Test func thePolicysHopLimitIsKept() async throws {
        let transport = chain(3)
        let error = await redirectError(
            HTTPRequest(url: url("https://api.example.invalid/0")), over: transport,
            RedirectMiddleware(policy: RedirectPolicy(maximumHops: 2)))
        #expect(error == .tooManyRedirects(limit: 2))
        #expect(transport.requests.count == 3)
    }

    @Test func aRedirectBackToAURLAlreadySentThrowsALoop() async throws {
        let transport = transport([
            "https://api.example.invalid/a": redirect(302, to: "/b"),
            "https://api.example.invalid/b": redirect(302, to: "/a#again"),
        ])
        let error = await redirectError(HTTPRequest(url: url("https://api.example.invalid/a")), over: transport)
        #expect(error == .loop(method: .get, url: url("https://api.example.invalid/a#again")))
        #expect(sentURLs(transport) == ["https://api.example.invalid/a", "https://api.example.invalid/b"])
    }

    @Test func aRedirectToItselfThrowsALoopAtOnce() async throws {
        let transport = transport(["https://api.example.invalid/a": redirect(307, to: "/a")])
        let error = await redirectError(HTTPRequest(url: url("https://api.example.invalid/a")), over: transport)
        #expect(error == .loop(method: .get, url: url("https://api.example.invalid/a")))
        #expect(transport.requests.count == 1)
    }

    @Test func theSameURLWithAnotherMethodIsNotALoop() async throws {
        // Post/redirect/get to the same URL: POST /orders answers 303 to /orders, which the GET lists.
        let transport = ScriptedTransport { request in
            request.method == .post ? redirect(303, to: "/orders") : .ok("list")
        }
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(jsonPost(to: "https://api.example.invalid/orders"))
        #expect(response.status == 200)
        #expect(transport.requests.map(\.method) == [.post, .get])
    }

    @Test func oneCallCanTurnFollowingOffAndGetsTheRedirectAsItIs() async throws {
        let transport = chain(1)
        var request = HTTPRequest(url: url("https://api.example.invalid/0"))
        request.context.redirects = .doNotFollow
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }.send(request)
        #expect(response.status == 302)
        #expect(response.fields["Location"] == "/1")
        #expect(try await response.body.collect(upTo: 100) == Data("see /1".utf8))
        #expect(transport.requests.count == 1)
    }

    @Test func oneCallCanCapItsHopsBelowOrAboveThePolicy() async throws {
        var capped = HTTPRequest(url: url("https://api.example.invalid/0"))
        capped.context.redirects = .maximumHops(1)
        let error = await redirectError(capped, over: chain(2))
        #expect(error == .tooManyRedirects(limit: 1))

        var raised = HTTPRequest(url: url("https://api.example.invalid/0"))
        raised.context.redirects = .maximumHops(12)
        let transport = chain(12)
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }.send(raised)
        #expect(response.status == 200 && transport.requests.count == 13)

        var none = HTTPRequest(url: url("https://api.example.invalid/0"))
        none.context.redirects = .maximumHops(0)
        #expect(await redirectError(none, over: chain(1)) == .tooManyRedirects(limit: 0))
    }

    @Test func theObserverIsToldOfEachHopInOrderAndTheLastLeadsToTheFinalURL() async throws {
        let transport = transport([
            "https://api.example.invalid/a": redirect(301, to: "https://cdn.example.invalid/b"),
            "https://cdn.example.invalid/b": redirect(303, to: "/c"),
        ])
        let hops = Hops()
        var request = jsonPost(to: "https://api.example.invalid/a")
        request.context.onRedirect = { hops.append($0) }
        _ = try await Pipeline(transport: transport) { RedirectMiddleware() }.send(request)
        #expect(
            hops.value == [
                HTTPRedirectHop(
                    status: 301, from: url("https://api.example.invalid/a"), to: url("https://cdn.example.invalid/b"),
                    method: .get),
                HTTPRedirectHop(
                    status: 303, from: url("https://cdn.example.invalid/b"), to: url("https://cdn.example.invalid/c"),
                    method: .get),
            ])
    }

    @Test func everyHopAfterTheFirstCarriesTheOriginalURLAndTheHopsSoFarTheFirstRequestGoesOutAsItCame() async throws {
        let transport = transport([
            "https://api.example.invalid/a": redirect(302, to: "https://cdn.example.invalid/b"),
            "https://cdn.example.invalid/b": redirect(302, to: "/c"),
        ])
        _ = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(HTTPRequest(url: url("https://api.example.invalid/a")))
        let histories = transport.requests.map(\.context.redirectHistory)
        #expect(
            histories.map { $0?.originalURL } == [nil]
                + Array(repeating: url("https://api.example.invalid/a"), count: 2))
        #expect(histories.map { $0?.hops.count } == [nil, 1, 2])
        #expect(
            histories.map { $0?.currentURL.absoluteString } == [nil]
                + sentURLs(transport).dropFirst().map { Optional($0) })
        #expect(
            transport.requests.map(\.callOrigin)
                == Array(repeating: HTTPOrigin(url("https://api.example.invalid")), count: 3))
    }

    @Test func eachHopGoesThroughTheLayersInside() async throws {
        let log = OrderLog()
        let transport = chain(2)
        _ = try await Pipeline(transport: transport) {
            RedirectMiddleware()
            OrderProbe("inner", log: log)
        }.send(HTTPRequest(url: url("https://api.example.invalid/0")))
        #expect(log.count("inner") == 3)
    }

    @Test func aRedirectsStreamedBodyIsDroppedUnreadAndTheFinalResponseReturned() async throws {
        // The 302's body never ends: reading it would hang the test.
        let endless = ScriptedTransport.Reply.streamed(
            302, headers: ["Location": "/final"], chunks: [Data("moved ".utf8)], then: .repeatForever)
        let transport = transport(["https://api.example.invalid/a": endless])
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(HTTPRequest(url: url("https://api.example.invalid/a")))
        #expect(response.status == 200)
        #expect(try await response.body.collect(upTo: 100) == Data("final".utf8))
    }

    @Test func aRedirectsStreamedBodyIsReleasedBeforeTheHopIsSent() async throws {
        // A transport's streamed body may hold the only connection to the host (a pool of one):
        // the hop must not be sent while the redirect's body is still alive.
        let transport = BodyReleaseTransport()
        for path in ["/first", "/second"] {
            let response = try await Pipeline(transport: transport) { RedirectMiddleware() }
                .send(HTTPRequest(url: url("https://api.example.invalid\(path)")))
            #expect(response.status == 200)
        }
        #expect(transport.redirectBodyEndedBeforeHop == [true, true, true, true])
    }

    @Test func keepsTheMiddlewareContract() async {
        let report = await MiddlewareContract().check { RedirectMiddleware() }
        #expect(report.violations.isEmpty, "\(report)")
    }
}

/// Answers `/first` and `/second` with 302s (to `/second`, then `/final`) whose bodies are
/// streams that never end, and records, when each hop is asked, whether the body of the redirect
/// before it had already been released (its stream's termination handler ran).
final class BodyReleaseTransport: HTTPTransport, Sendable {
    private let state = Mutex<(bodyEnded: Bool, endedBeforeHop: [Bool])>((false, []))

    var redirectBodyEndedBeforeHop: [Bool] { state.withLock { $0.endedBeforeHop } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.url.path
        if path != "/first" {
            state.withLock { $0.endedBeforeHop.append($0.bodyEnded) }
        }
        guard path != "/final" else { return HTTPResponse(status: 200) }
        state.withLock { $0.bodyEnded = false }
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        continuation.yield(Data("moved ".utf8))
        continuation.onTermination = { [self] _ in state.withLock { $0.bodyEnded = true } }
        return HTTPResponse(
            status: 302, fields: [.location: path == "/first" ? "/second" : "/final"], body: HTTPBody(stream: stream))
    }
}

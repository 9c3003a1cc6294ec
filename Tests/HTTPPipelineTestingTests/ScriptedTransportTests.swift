import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@Suite struct ScriptedTransportTests {
    func request(_ path: String, method: HTTPMethod = .get) -> HTTPRequest {
        HTTPRequest(method: method, url: URL(string: "http://example.invalid" + path) ?? URL(fileURLWithPath: "/"))
    }

    @Test func sequenceHandsOutRepliesInOrderAndThenFailsClearly() async throws {
        let transport = ScriptedTransport([.status(503), .ok("second")])
        let first = try await transport.send(request("/a"))
        let second = try await transport.send(request("/b"))
        #expect(first.status == 503)
        #expect(second.status == 200)
        #expect(second.body.bufferedData.map { String(decoding: $0, as: UTF8.self) } == "second")
        await #expect(throws: ScriptedTransportError.scriptExhausted(requestNumber: 3)) {
            try await transport.send(request("/c"))
        }
        #expect(transport.requests.map { $0.url.path } == ["/a", "/b", "/c"])
    }

    @Test func routesAnswerByMethodAndPathAndFallBackTo404() async throws {
        let transport = ScriptedTransport(routes: [
            "GET /books/1": .ok("book"),
            "DELETE /books/1": .status(204),
        ])
        let ok = try await transport.send(request("/books/1?x=1"))
        let deleted = try await transport.send(request("/books/1", method: HTTPMethod(rawValue: "delete")))
        let missing = try await transport.send(request("/books/2"))
        #expect(ok.body.bufferedData.map { String(decoding: $0, as: UTF8.self) } == "book")
        #expect(ok.status == 200)
        #expect(deleted.status == 204)
        #expect(missing.status == 404)
    }

    @Test func closureScriptSeesEachRequestAndMayThrow() async throws {
        let transport = ScriptedTransport { request in
            if request.fields["Authorization"] == nil { throw URLError(.userAuthenticationRequired) }
            return .status(200, headers: ["X-Echo": request.url.path])
        }
        await #expect(throws: URLError(.userAuthenticationRequired)) { try await transport.send(request("/x")) }
        var authorised = request("/y")
        authorised.fields["Authorization"] = "Bearer t"
        let response = try await transport.send(authorised)
        #expect(response.fields["X-Echo"] == "/y")
    }

    @Test func scriptedFailureIsThrownAsIs() async throws {
        let transport = ScriptedTransport([.failure(URLError(.networkConnectionLost))])
        await #expect(throws: URLError(.networkConnectionLost)) { try await transport.send(request("/")) }
    }

    @Test func delayedReplyWaitsOnTheGivenClock() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok("late").delayed(by: .seconds(30))], clock: clock)
        let call = Task { try await transport.send(request("/slow")) }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [.init(offset: .seconds(30))])
        clock.advance(by: .seconds(30))
        let response = try await call.value
        #expect(response.body.bufferedData.map { String(decoding: $0, as: UTF8.self) } == "late")
    }

    @Test func cancellingDuringADelayThrowsCancellationError() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.ok().delayed(by: .seconds(30))], clock: clock)
        let call = Task { try await transport.send(request("/slow")) }
        await clock.waitForSleepers(1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test func bodyBytesAndHeadersComeBackExactlyAsScripted() async throws {
        let bytes = Data([0x1f, 0x8b, 0x00, 0xff, 0x0d, 0x0a])
        let transport = ScriptedTransport([.status(200, headers: ["Content-Encoding": "gzip"], body: bytes)])
        let response = try await transport.send(request("/raw"))
        #expect(response.body.bufferedData == bytes)
        #expect(response.fields["content-encoding"] == "gzip")
    }
}

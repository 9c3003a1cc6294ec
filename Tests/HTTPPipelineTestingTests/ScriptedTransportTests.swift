import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct ScriptedTransportTests {
    func request(_ path: String, method: String = "GET") -> URLRequest {
        var request = URLRequest(url: URL(string: "http://example.invalid" + path) ?? URL(fileURLWithPath: "/"))
        request.httpMethod = method
        return request
    }

    @Test func sequenceHandsOutRepliesInOrderAndThenFailsClearly() async throws {
        let transport = ScriptedTransport([.status(503), .ok("second")])
        let (_, first) = try await transport.send(request("/a"))
        let (body, second) = try await transport.send(request("/b"))
        #expect(first.statusCode == 503)
        #expect(second.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "second")
        await #expect(throws: ScriptedTransportError.scriptExhausted(requestNumber: 3)) {
            try await transport.send(request("/c"))
        }
        #expect(transport.requests.map { $0.url?.path } == ["/a", "/b", "/c"])
    }

    @Test func routesAnswerByMethodAndPathAndFallBackTo404() async throws {
        let transport = ScriptedTransport(routes: [
            "GET /books/1": .ok("book"),
            "DELETE /books/1": .status(204),
        ])
        let (body, ok) = try await transport.send(request("/books/1?x=1"))
        let (_, deleted) = try await transport.send(request("/books/1", method: "delete"))
        let (_, missing) = try await transport.send(request("/books/2"))
        #expect(String(decoding: body, as: UTF8.self) == "book")
        #expect(ok.statusCode == 200)
        #expect(deleted.statusCode == 204)
        #expect(missing.statusCode == 404)
    }

    @Test func closureScriptSeesEachRequestAndMayThrow() async throws {
        let transport = ScriptedTransport { request in
            if request.value(forHTTPHeaderField: "Authorization") == nil { throw URLError(.userAuthenticationRequired) }
            return .status(200, headers: ["X-Echo": request.url?.path ?? ""])
        }
        await #expect(throws: URLError(.userAuthenticationRequired)) { try await transport.send(request("/x")) }
        var authorised = request("/y")
        authorised.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        let (_, response) = try await transport.send(authorised)
        #expect(response.value(forHTTPHeaderField: "X-Echo") == "/y")
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
        let (body, _) = try await call.value
        #expect(String(decoding: body, as: UTF8.self) == "late")
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
        let (body, response) = try await transport.send(request("/raw"))
        #expect(body == bytes)
        #expect(response.value(forHTTPHeaderField: "content-encoding") == "gzip")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// What a caller sees of a response: status, header fields and body.
struct Outcome: Equatable {
    var status: Int
    var fields: HTTPFields
    var body: Data
}

@Suite struct RecordReplayLoopbackTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0xFF])

    /// A server with a JSON list, a login that sets a cookie and answers a token, a redirect and
    /// an image.
    func startServer() throws -> LoopbackServer {
        let server = LoopbackServer()
        server.route(
            "GET", "/books",
            .init(
                headers: [("Content-Type", "application/json"), ("X-Total", "2")],
                body: Data(#"[{"id":1,"title":"Dune"},{"id":2,"title":"Emma"}]"#.utf8)))
        server.route(
            "POST", "/login",
            .init(
                headers: [("Content-Type", "application/json"), ("Set-Cookie", "sid=srv-cookie-9f8e7d6c5b; HttpOnly")],
                body: Data(#"{"access_token":"srv-token-0a1b2c3d4e5f","expires_in":3600}"#.utf8)))
        server.route("GET", "/old-books", .init(status: 302, headers: [("Location", "/books")]))
        server.route("GET", "/cover.png", .init(headers: [("Content-Type", "image/png")], body: Self.png))
        try server.start()
        return server
    }

    func requests(_ base: URL) -> [HTTPRequest] {
        [
            HTTPRequest(url: base.appending(path: "books"), fields: [.authorization: "Bearer user-token-77aa88bb"]),
            HTTPRequest(
                method: .post,
                url: base.appending(path: "login"),
                fields: [.contentType: "application/json"],
                body: HTTPBody(Data(#"{"user":"ann","password":"hunter2-horse"}"#.utf8))
            ),
            HTTPRequest(url: base.appending(path: "old-books")),
            HTTPRequest(url: base.appending(path: "cover.png")),
            HTTPRequest(url: base.appending(path: "books")),
        ]
    }

    func outcomes(_ client: some HTTPTransport, _ requests: [HTTPRequest]) async throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for request in requests {
            let response = try await client.send(request)
            var fields = response.fields
            fields.removeAll(named: .date)
            outcomes.append(
                Outcome(
                    status: response.status.code, fields: fields, body: try await response.body.collect(upTo: 1 << 20)))
        }
        return outcomes
    }

    @Test func recordedThroughTheStandardStackAndReplayedOfflineWithTheSameOutcomes() async throws {
        let server = try startServer()
        let base = server.baseURL
        let cassette = Cassette()
        let recording = try StandardPipeline.build(
            over: RecordingTransport(over: URLSessionTransport(), into: cassette))
        let recorded = try await outcomes(recording, requests(base))
        server.stop()
        let file = temporaryFile("loopback.har")
        try cassette.write(to: file)

        // Every exchange the transport saw is an entry, the redirect's two hops included.
        let loaded = try Cassette(contentsOf: file)
        #expect(loaded.entries.map(\.request.method) == ["GET", "POST", "GET", "GET", "GET", "GET"])
        #expect(loaded.entries[2].response.redirectURL == "/books")

        let replaying = try StandardPipeline.build(over: ReplayingTransport(loaded))
        let replayed = try await outcomes(replaying, requests(base))
        #expect(replayed.map(\.status) == [200, 200, 200, 200, 200])
        // What held no secret comes back exactly as recorded: the list, the redirect's target,
        // the image, the list again.
        for index in [0, 2, 3, 4] {
            #expect(replayed[index] == recorded[index], "request \(index)")
        }
        // The login's token and cookie come back as their placeholders.
        let login = replayed[1]
        #expect(String(decoding: login.body, as: UTF8.self) == #"{"access_token":"<redacted-3>","expires_in":3600}"#)
        #expect(login.fields["Set-Cookie"]?.hasPrefix("<redacted-") == true)

        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in ["user-token-77aa88bb", "hunter2-horse", "srv-token-0a1b2c3d4e5f", "srv-cookie-9f8e7d6c5b"] {
            #expect(!text.contains(secret))
        }
    }
}

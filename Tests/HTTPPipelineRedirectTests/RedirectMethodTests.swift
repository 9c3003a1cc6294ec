import Foundation
import HTTPPipeline
import HTTPPipelineRedirect
import HTTPPipelineTesting
import Testing

/// What method and body the next hop of each redirect status gets.
@Suite struct RedirectMethodTests {
    struct Case: Sendable, CustomStringConvertible {
        let status: Int
        let method: HTTPMethod
        let nextMethod: HTTPMethod
        let keepsBody: Bool
        var description: String { "\(status) to \(method)" }
    }

    static let cases: [Case] = [
        Case(status: 301, method: .post, nextMethod: .get, keepsBody: false),
        Case(status: 302, method: .post, nextMethod: .get, keepsBody: false),
        Case(status: 302, method: .put, nextMethod: .get, keepsBody: false),
        Case(status: 303, method: .post, nextMethod: .get, keepsBody: false),
        Case(status: 303, method: .delete, nextMethod: .get, keepsBody: false),
        Case(status: 307, method: .post, nextMethod: .post, keepsBody: true),
        Case(status: 308, method: .put, nextMethod: .put, keepsBody: true),
        Case(status: 307, method: .patch, nextMethod: .patch, keepsBody: true),
    ]

    @Test(arguments: cases)
    func aRedirectTurnsTheRequestIntoAGetWithoutItsBodyOrKeepsBothAsItsStatusSays(_ test: Case) async throws {
        let transport = transport(["https://api.example.invalid/old": redirect(test.status, to: "/new")])
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(jsonPost(test.method, to: "https://api.example.invalid/old"))
        #expect(try await response.body.collect(upTo: 100) == Data("final".utf8))
        let hop = try #require(transport.requests.last)
        #expect(sentURLs(transport) == ["https://api.example.invalid/old", "https://api.example.invalid/new"])
        #expect(hop.method == test.nextMethod)
        #expect(hop.fields["Accept"] == "application/json", "fields that do not describe the body stay")
        if test.keepsBody {
            #expect(hop.body?.bufferedData == Data(#"{"title":"Dune"}"#.utf8))
            #expect(hop.fields["Content-Type"] == "application/json")
        } else {
            #expect(hop.body == nil)
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                #expect(hop.fields[name] == nil, "\(name) goes with the body")
            }
        }
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func getStaysGetOnEveryRedirectStatus(_ status: Int) async throws {
        let transport = transport(["https://api.example.invalid/old": redirect(status, to: "/new")])
        _ = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(HTTPRequest(url: url("https://api.example.invalid/old")))
        #expect(transport.requests.map(\.method) == [.get, .get])
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func headStaysHeadOnEveryRedirectStatus(_ status: Int) async throws {
        let transport = transport(["https://api.example.invalid/old": redirect(status, to: "/new")])
        _ = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(HTTPRequest(method: .head, url: url("https://api.example.invalid/old")))
        #expect(transport.requests.map(\.method) == [.head, .head])
    }

    @Test(arguments: [307, 308])
    func aRedirectKeepingASinglePassBodyIsReturnedAsItIsAndNothingMoreIsSent(_ status: Int) async throws {
        let transport = transport(["https://api.example.invalid/upload": redirect(status, to: "/elsewhere")])
        let request = jsonPost(to: "https://api.example.invalid/upload", body: singlePass("once"))
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }.send(request)
        #expect(response.status.code == status)
        #expect(response.fields["Location"] == "/elsewhere")
        #expect(sentURLs(transport) == ["https://api.example.invalid/upload"])
    }

    @Test(arguments: [307, 308])
    func aRedirectKeepingAReplayableStreamedBodySendsItAgain(_ status: Int) async throws {
        let transport = transport(["https://api.example.invalid/upload": redirect(status, to: "/elsewhere")])
        let replayable = HTTPBody(replayable: {
            AsyncStream { continuation in
                continuation.yield(Data("again".utf8))
                continuation.finish()
            }
        })
        let request = jsonPost(to: "https://api.example.invalid/upload", body: replayable)
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }.send(request)
        #expect(response.status == 200)
        #expect(transport.requests.map(\.body?.bufferedData) == [Data("again".utf8), Data("again".utf8)])
    }

    @Test func a303ToAPostWithASinglePassBodyIsFollowedAsAGetWithoutIt() async throws {
        let transport = transport(["https://api.example.invalid/orders": redirect(303, to: "/orders/7")])
        let request = jsonPost(to: "https://api.example.invalid/orders", body: singlePass("once"))
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }.send(request)
        #expect(response.status == 200)
        #expect(transport.requests.map(\.method) == [.post, .get])
        #expect(transport.requests.last?.body == nil)
    }

    @Test(arguments: [300, 304, 305, 306, 399])
    func otherThreeHundredStatusesAreReturnedNotFollowed(_ status: Int) async throws {
        let transport = transport(["https://api.example.invalid/x": redirect(status, to: "/y")])
        let response = try await Pipeline(transport: transport) { RedirectMiddleware() }
            .send(HTTPRequest(url: url("https://api.example.invalid/x")))
        #expect(response.status.code == status)
        #expect(transport.requests.count == 1)
    }
}

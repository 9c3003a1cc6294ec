import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineTesting
import Testing

@Suite struct ReplayMatchingTests {
    /// The strict-mode error for a request, or `nil` when it was answered.
    func strictError(_ transport: ReplayingTransport, _ request: HTTPRequest) async -> CassetteError? {
        do {
            _ = try await transport.send(request)
            return nil
        } catch {
            return error as? CassetteError
        }
    }

    @Test func repeatedIdenticalRequestsAreServedInRecordedOrder() async throws {
        let cassette = try await recordedCassette(
            Array(repeating: HTTPRequest(url: testURL("https://api.example.com/next")), count: 3),
            reply: numberedReplies()
        )
        let replay = try ReplayingTransport(cassette)
        var bodies: [String] = []
        for _ in 0..<3 {
            let response = try await replay.send(HTTPRequest(url: testURL("https://api.example.com/next")))
            bodies.append(String(decoding: response.body.bufferedData ?? Data(), as: UTF8.self))
        }
        #expect(bodies == ["1", "2", "3"])
        let error = await strictError(replay, HTTPRequest(url: testURL("https://api.example.com/next")))
        #expect(error == .exhausted(request: "GET https://api.example.com/next", served: 3))
    }

    @Test func anUnmatchedRequestNamesTheClosestEntryAndWhatDiffered() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(url: testURL("https://api.example.com/books?page=1")),
            HTTPRequest(method: .delete, url: testURL("https://api.example.com/authors/7")),
        ])
        let replay = try ReplayingTransport(cassette)
        let query = await strictError(replay, HTTPRequest(url: testURL("https://api.example.com/books?page=2")))
        guard let closest = query?.closest else {
            Issue.record("expected noMatch, got \(String(describing: query))")
            return
        }
        #expect(closest.entry == 0)
        #expect(closest.differences == [.queryItem(name: "page", recorded: "1", live: "2")])
        let method = await strictError(
            replay, HTTPRequest(method: .get, url: testURL("https://api.example.com/authors/7")))
        guard let closest = method?.closest else {
            Issue.record("expected noMatch, got \(String(describing: method))")
            return
        }
        #expect(closest.entry == 1)
        #expect(closest.differences == [.method(recorded: "DELETE", live: "GET")])
        let path = await strictError(replay, HTTPRequest(url: testURL("https://api.example.com/book?page=1")))
        guard let closest = path?.closest else {
            Issue.record("expected noMatch, got \(String(describing: path))")
            return
        }
        #expect(closest.differences == [.path(recorded: "/books", live: "/book")])
        #expect(path?.description.contains("entry 0") == true)
    }

    @Test func anEmptyCassetteSaysSoInStrictMode() async throws {
        let error = await strictError(
            try ReplayingTransport(Cassette()), HTTPRequest(url: testURL("https://a.example/")))
        #expect(error == .noMatch(request: "GET https://a.example/", closest: nil))
    }

    @Test func ignoredQueryItemsAreLeftOutOfTheComparison() async throws {
        let cassette = try await recordedCassette([HTTPRequest(url: testURL("https://api.example.com/feed?t=100&n=5"))])
        let strict = try ReplayingTransport(cassette)
        #expect(await strictError(strict, HTTPRequest(url: testURL("https://api.example.com/feed?t=200&n=5"))) != nil)
        let lenient = try ReplayingTransport(cassette, rules: .default.ignoringQueryItems(["t"]))
        _ = try await lenient.send(HTTPRequest(url: testURL("https://api.example.com/feed?n=5&t=200")))
    }

    @Test func queryItemsMatchInAnyOrderAcrossNames() async throws {
        let cassette = try await recordedCassette([HTTPRequest(url: testURL("https://api.example.com/s?a=1&b=2"))])
        _ = try await ReplayingTransport(cassette).send(HTTPRequest(url: testURL("https://api.example.com/s?b=2&a=1")))
    }

    @Test func matchedHeadersMustBeEqualAndOthersAreNotCompared() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(
                url: testURL("https://api.example.com/doc"),
                fields: [.accept: "text/html", HTTPField.Name(unchecked: "X-Trace"): "1"])
        ])
        let byAccept = try ReplayingTransport(cassette, rules: .default.matchingHeaders(["accept"]))
        let error = await strictError(
            byAccept,
            HTTPRequest(url: testURL("https://api.example.com/doc"), fields: [.accept: "application/json"])
        )
        guard let closest = error?.closest else {
            Issue.record("expected noMatch, got \(String(describing: error))")
            return
        }
        #expect(closest.differences == [.header(name: "accept", recorded: "text/html", live: "application/json")])
        _ = try await byAccept.send(
            HTTPRequest(
                url: testURL("https://api.example.com/doc"),
                fields: [.accept: "text/html", HTTPField.Name(unchecked: "X-Trace"): "2"])
        )
    }

    @Test func everyHeaderButTheIgnoredOnesIsCompared() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(
                url: testURL("https://api.example.com/doc"),
                fields: [.accept: "text/html", HTTPField.Name(unchecked: "X-Trace"): "1"])
        ])
        let rules = MatchRules.default.ignoringHeaders(["X-Trace"])
        let replay = try ReplayingTransport(cassette, rules: rules)
        let missing = await strictError(replay, HTTPRequest(url: testURL("https://api.example.com/doc")))
        guard let closest = missing?.closest else {
            Issue.record("expected noMatch, got \(String(describing: missing))")
            return
        }
        #expect(closest.differences == [.header(name: "accept", recorded: "text/html", live: nil)])
        _ = try await replay.send(
            HTTPRequest(
                url: testURL("https://api.example.com/doc"),
                fields: [.accept: "text/html", HTTPField.Name(unchecked: "X-Trace"): "9"])
        )
    }

    @Test func aSecretHeaderMatchesWhateverSecretTheLiveRequestCarries() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(url: testURL("https://api.example.com/me"), fields: [.authorization: "Bearer real-one-abcdef"])
        ])
        let replay = try ReplayingTransport(cassette, rules: .default.matchingHeaders(["Authorization"]))
        _ = try await replay.send(
            HTTPRequest(url: testURL("https://api.example.com/me"), fields: [.authorization: "Bearer test-dummy"])
        )
    }

    @Test func aSecretKeepsItsPlaceholderSoAStaleTokensRequestsAndAFreshOnesAreToldApartWhenInterleaved() async throws {
        let url = testURL("https://api.example.com/me")
        func sent(_ token: String) -> HTTPRequest {
            HTTPRequest(url: url, fields: [.authorization: "Bearer \(token)"])
        }
        // Recorded: the fresh token's 200 written between the stale token's two 401s.
        let cassette = try await recordedCassette(
            [sent("stale-abcdef123"), sent("fresh-zyxwvu987"), sent("stale-abcdef123"), sent("fresh-zyxwvu987")]
        ) { request in
            request.fields["Authorization"] == "Bearer fresh-zyxwvu987" ? .ok("fresh") : .status(401)
        }
        #expect(!(try harText(cassette)).contains("abcdef123"))
        let replay = try ReplayingTransport(cassette, rules: .default.matchingHeaders(["Authorization"]))
        // Replayed with other secrets, in another order: both stale requests first.
        var statuses: [Int] = []
        for token in ["old-one-555555", "old-one-555555", "new-one-777777", "new-one-777777"] {
            statuses.append(try await replay.send(sent(token)).status.code)
        }
        #expect(statuses == [401, 401, 200, 200])
    }

    @Test func oneDummyTokenSentForTwoRecordedOnesFollowsTheFirstOnesEntriesThenTheOthers() async throws {
        let url = testURL("https://api.example.com/jobs/1")
        func sent(_ token: String) -> HTTPRequest {
            HTTPRequest(url: url, fields: [.authorization: "Bearer \(token)"])
        }
        let cassette = try await recordedCassette(
            [sent("alice-abcdef123"), sent("bob-zyxwvu987"), sent("alice-abcdef123"), sent("bob-zyxwvu987")],
            reply: numberedReplies())
        let replay = try ReplayingTransport(cassette, rules: .default.matchingHeaders(["Authorization"]))
        var bodies: [String] = []
        for _ in 0..<4 {
            let response = try await replay.send(sent("dummy-000000"))
            bodies.append(String(decoding: response.body.bufferedData ?? Data(), as: UTF8.self))
        }
        #expect(bodies == ["1", "3", "2", "4"])
    }

    @Test func aRequestWhoseSecretsClashWithAnEntrysPlaceholdersBindsNothing() async throws {
        let url = testURL("https://api.example.com/pair")
        func sent(_ first: String, _ second: String) -> HTTPRequest {
            HTTPRequest(
                url: url, fields: [.authorization: "Bearer \(first)", .proxyAuthorization: "Bearer \(second)"])
        }
        // Recorded with one secret in both headers (<1>, <1>), then another (<2>, <2>), then the first.
        let cassette = try await recordedCassette(
            [
                sent("same-abcdef123", "same-abcdef123"), sent("other-zyxwvu987", "other-zyxwvu987"),
                sent("same-abcdef123", "same-abcdef123"),
            ],
            reply: numberedReplies())
        #expect(cassette.entries.first?.request.headers.filter { $0.value == "<redacted-1>" }.count == 2)
        let replay = try ReplayingTransport(
            cassette, rules: .default.matchingHeaders(["Authorization", "Proxy-Authorization"]))
        // Two live secrets where the entry has one: served in order, and neither bound to <1>.
        let first = try await replay.send(sent("live-a-111111", "live-b-222222"))
        #expect(first.body.bufferedData == Data("1".utf8))
        let second = try await replay.send(sent("live-a-111111", "live-a-111111"))
        #expect(second.body.bufferedData == Data("2".utf8), "live-a was not tied to <1> by the clashing request")
    }

    @Test func aCassetteLoadedFromAFileNumbersTheSecretsItRecordsAfterTheFilesOwn() async throws {
        let recorded = try await recordedCassette([
            HTTPRequest(
                url: testURL("https://api.example.com/old"), fields: [.authorization: "Bearer first-abcdef123"])
        ])
        let loaded = try Cassette(data: try recorded.harData())
        let replay = try ReplayingTransport(loaded, mode: .recordMissing(over: ScriptedTransport { _ in .ok("live") }))
        _ = try await replay.send(
            HTTPRequest(
                url: testURL("https://api.example.com/new"), fields: [.authorization: "Bearer second-zyxwvu987"]))
        let values = loaded.entries.flatMap { $0.request.headers.filter { $0.name == "Authorization" }.map(\.value) }
        #expect(values == ["<redacted-1>", "<redacted-2>"])
    }

    @Test func aSecretWithNoAgreeingEntryLeftIsServedTheFirstMatchingOne() async throws {
        let url = testURL("https://api.example.com/me")
        func sent(_ token: String) -> HTTPRequest {
            HTTPRequest(url: url, fields: [.authorization: "Bearer \(token)"])
        }
        let cassette = try await recordedCassette(
            [sent("first-abcdef123"), sent("second-zyxwvu987")], reply: numberedReplies())
        let replay = try ReplayingTransport(cassette, rules: .default.matchingHeaders(["Authorization"]))
        var bodies: [String] = []
        for _ in 0..<2 {
            let response = try await replay.send(sent("dummy-000000"))
            bodies.append(String(decoding: response.body.bufferedData ?? Data(), as: UTF8.self))
        }
        #expect(bodies == ["1", "2"], "one dummy token stands in for both recorded ones")
    }

    @Test func theBodyMatcherDecidesBetweenEntriesOfOneURL() async throws {
        func post(_ json: String) -> HTTPRequest {
            HTTPRequest(
                method: .post,
                url: testURL("https://api.example.com/search"),
                fields: [.contentType: "application/json"],
                body: HTTPBody(Data(json.utf8))
            )
        }
        let cassette = try await recordedCassette([post(#"{"q":"dune"}"#), post(#"{"q":"emma"}"#)]) { request in
            .ok(request.body?.bufferedData.map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
        let rules = MatchRules.default.matchingBodies { recorded, live in recorded == live }
        let replay = try ReplayingTransport(cassette, rules: rules)
        let emma = try await replay.send(post(#"{"q":"emma"}"#))
        #expect(emma.body.bufferedData == Data(#"{"q":"emma"}"#.utf8))
        let error = await strictError(replay, post(#"{"q":"ulysses"}"#))
        guard let closest = error?.closest else {
            Issue.record("expected noMatch, got \(String(describing: error))")
            return
        }
        #expect(closest.differences == [.body])
    }

    @Test func aRedactedBodyFieldMatchesAnyLiveSecretThere() async throws {
        let login = { (password: String) in
            HTTPRequest(
                method: .post,
                url: testURL("https://api.example.com/login"),
                fields: [.contentType: "application/json"],
                body: HTTPBody(Data(#"{"user":"ann","password":"\#(password)"}"#.utf8))
            )
        }
        let cassette = try await recordedCassette([login("the-real-password-1")])
        let replay = try ReplayingTransport(cassette, rules: .default.matchingBodies { $0 == $1 })
        _ = try await replay.send(login("a-test-password"))
    }

    @Test func recordMissingSendsAndRecordsUnmatchedRequestsOnly() async throws {
        let cassette = try await recordedCassette([HTTPRequest(url: testURL("https://api.example.com/old"))]) { _ in
            .ok("recorded")
        }
        let live = ScriptedTransport { _ in .ok("live") }
        let replay = try ReplayingTransport(cassette, mode: .recordMissing(over: live))
        let old = try await replay.send(HTTPRequest(url: testURL("https://api.example.com/old")))
        let new = try await replay.send(HTTPRequest(url: testURL("https://api.example.com/new?api_key=s3cret-key-123")))
        #expect(old.body.bufferedData == Data("recorded".utf8))
        #expect(new.body.bufferedData == Data("live".utf8))
        #expect(live.requests.count == 1)
        #expect(cassette.entries.map(\.request.url).last == "https://api.example.com/new?api_key=<redacted-1>")
    }

    @Test func passThroughSendsUnmatchedRequestsAndRecordsNothing() async throws {
        let cassette = try await recordedCassette([HTTPRequest(url: testURL("https://api.example.com/old"))])
        let live = ScriptedTransport { _ in .ok("live") }
        let replay = try ReplayingTransport(cassette, mode: .passThrough(over: live))
        let new = try await replay.send(HTTPRequest(url: testURL("https://api.example.com/new")))
        #expect(new.body.bufferedData == Data("live".utf8))
        #expect(cassette.entries.count == 1)
    }

    @Test func ignoringTheOriginMatchesAnotherPortOrHost() async throws {
        let cassette = try await recordedCassette([HTTPRequest(url: testURL("http://127.0.0.1:4000/books"))])
        let strict = try ReplayingTransport(cassette)
        let error = await strictError(strict, HTTPRequest(url: testURL("http://127.0.0.1:5000/books")))
        guard let closest = error?.closest else {
            Issue.record("expected noMatch, got \(String(describing: error))")
            return
        }
        #expect(closest.differences == [.origin(recorded: "http://127.0.0.1:4000", live: "http://127.0.0.1:5000")])
        _ = try await ReplayingTransport(cassette, rules: .default.ignoringOrigin())
            .send(HTTPRequest(url: testURL("http://127.0.0.1:5000/books")))
    }
}

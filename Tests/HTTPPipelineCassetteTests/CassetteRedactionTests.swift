import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineTesting
import Testing

/// Exchanges hiding fresh random secrets in every place a cassette writes: bearer tokens,
/// cookies both ways, API keys in the query, user info, passwords in JSON and form bodies,
/// tokens in JSON responses. In the style of the logging tests' corpus.
struct SecretCorpus {
    var random: SeededRandomNumberGenerator
    var secrets: [String] = []

    init(seed: UInt64) {
        random = SeededRandomNumberGenerator(seed: seed)
    }

    mutating func token(_ length: Int = 32) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        let token = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
        secrets.append(token)
        return token
    }

    /// The exchanges: requests, and what the server answers each.
    mutating func exchanges() -> [(HTTPRequest, ScriptedTransport.Reply)] {
        let bearer = token()
        let cookie = token(24)
        let apiKey = token(40)
        let password = "Pw-" + token(20)
        let userPassword = token(16)
        let accessToken = token()
        let refreshToken = token()
        let setCookie = token(28)
        let login = HTTPRequest(
            method: .post,
            url: testURL("https://ann:\(userPassword)@api.example.com/login?api_key=\(apiKey)&page=1"),
            fields: [.contentType: "application/json", .cookie: "session=\(cookie)"],
            body: HTTPBody(Data(#"{"user":"ann","password":"\#(password)","remember":true}"#.utf8))
        )
        let tokenReply = ScriptedTransport.Reply.status(
            200,
            headers: ["Content-Type": "application/json", "Set-Cookie": "sid=\(setCookie); Path=/; HttpOnly"],
            body: Data(
                #"{"access_token":"\#(accessToken)","refresh_token":"\#(refreshToken)","token_type":"Bearer"}"#.utf8)
        )
        let books = HTTPRequest(
            url: testURL("https://api.example.com/books?access_token=\(accessToken)&page=2"),
            fields: [
                .authorization: "Bearer \(bearer)", HTTPField.Name(unchecked: "X-Api-Key"): apiKey,
                .accept: "application/json",
            ]
        )
        let form = HTTPRequest(
            method: .post,
            url: testURL("https://api.example.com/oauth/token"),
            fields: [.contentType: "application/x-www-form-urlencoded", .authorization: "Bearer \(bearer)"],
            body: HTTPBody(Data("grant_type=refresh_token&refresh_token=\(refreshToken)&client_id=shelf".utf8))
        )
        return [(login, tokenReply), (books, .ok(#"[{"id":1}]"#)), (form, tokenReply)]
    }
}

@Suite struct CassetteRedactionTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aWrittenCassetteNeverContainsASecret(seed: UInt64) async throws {
        var corpus = SecretCorpus(seed: seed)
        let exchanges = corpus.exchanges()
        let cassette = Cassette()
        let replies = exchanges.map(\.1)
        let transport = ScriptedTransport(replies)
        let recorder = RecordingTransport(over: transport, into: cassette)
        for (request, _) in exchanges { _ = try await recorder.send(request) }
        let file = temporaryFile("secrets.har")
        try cassette.write(to: file)
        let written = try String(contentsOf: file, encoding: .utf8)
        for secret in corpus.secrets {
            #expect(!written.contains(secret), "secret \(secret.prefix(4))… written")
            #expect(!written.contains(secret.prefix(12)), "the start of a secret written")
            #expect(!written.contains(secret.suffix(12)), "the end of a secret written")
        }
        #expect(written.contains("<redacted-1>"))
        #expect(!written.contains("\"<redacted>\""))
        // What is not secret stays.
        #expect(written.contains("page=2"))
        #expect(written.contains(#"\"user\":\"ann\""#) || written.contains(#""user":"ann""#))
        #expect(written.contains("client_id=shelf"))
    }

    @Test func theSameSecretGetsTheSamePlaceholderAndADifferentOneAnother() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(url: testURL("https://api.example.com/a"), fields: [.authorization: "Bearer tokenAAAA1111"]),
            HTTPRequest(url: testURL("https://api.example.com/b"), fields: [.authorization: "Bearer tokenBBBB2222"]),
            HTTPRequest(url: testURL("https://api.example.com/c"), fields: [.authorization: "Bearer tokenAAAA1111"]),
        ])
        let values = cassette.entries.map { $0.request.headers.first { $0.name == "Authorization" }?.value }
        #expect(values == ["<redacted-1>", "<redacted-2>", "<redacted-1>"])
    }

    @Test func aSecretInTheQueryKeepsItsPlaceholderAcrossRequests() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(url: testURL("https://api.example.com/a?api_key=k3y-one-1234&q=x")),
            HTTPRequest(url: testURL("https://api.example.com/b?api_key=k3y-one-1234")),
        ])
        let urls = cassette.entries.map(\.request.url)
        #expect(
            urls == [
                "https://api.example.com/a?api_key=<redacted-1>&q=x", "https://api.example.com/b?api_key=<redacted-1>",
            ])
        #expect(
            cassette.entries.first?.request.queryString.first == HAR.NameValue(name: "api_key", value: "<redacted-1>"))
    }

    @Test func aReplayMatchesARequestCarryingADifferentSecret() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(url: testURL("https://api.example.com/me?access_token=real-token-123456"))
        ]) { _ in .ok("me") }
        let replay = try ReplayingTransport(cassette)
        let response = try await replay.send(HTTPRequest(url: testURL("https://api.example.com/me?access_token=dummy")))
        #expect(response.body.bufferedData == Data("me".utf8))
    }

    @Test func aRequestWithSecretPathParametersMatchesItsRecordingOnReplay() async throws {
        let recorded =
            "https://shop.example.com/shop;sessionid=a8f3kd93jf83kd9;token=zz91kdj38dk3/cart/items;jsessionid=Q1w2E3r4T5y6?page=1"
        let cassette = try await recordedCassette([
            HTTPRequest(url: testURL(recorded)), HTTPRequest(url: testURL(recorded)),
        ]) { _ in
            .ok("cart")
        }
        let replay = try ReplayingTransport(cassette)

        let same = try await replay.send(HTTPRequest(url: testURL(recorded)))
        let other = try await replay.send(
            HTTPRequest(
                url: testURL("https://shop.example.com/shop;sessionid=x;token=y/cart/items;jsessionid=z?page=1")))

        #expect(cassette.entries.first?.request.url.contains("a8f3kd93jf83kd9") == false)
        #expect(same.body.bufferedData == Data("cart".utf8))
        #expect(other.body.bufferedData == Data("cart".utf8))
    }

    @Test func aSecretInARecordedResponseBodyIsReplacedToo() async throws {
        let cassette = try await recordedCassette([HTTPRequest(url: testURL("https://api.example.com/token"))]) { _ in
            .status(
                200, headers: ["Content-Type": "application/json"],
                body: Data(#"{"access_token":"abcSECRETxyz987"}"#.utf8))
        }
        let text = try #require(cassette.entries.first?.response.content.text)
        #expect(text == #"{"access_token":"<redacted-1>"}"#)
    }

    @Test func aSoapBodysSecretElementsAreReplacedInBothDirections() async throws {
        let request = HTTPRequest(
            method: .post, url: testURL("https://api.example.com/soap"),
            fields: [.contentType: "application/soap+xml"],
            body: HTTPBody(
                Data(
                    "<Envelope><Body><Login><user>ann</user><password>hunter2xyz</password></Login></Body></Envelope>"
                        .utf8)))
        let cassette = try await recordedCassette([request]) { _ in
            .status(
                200, headers: ["Content-Type": "text/xml"],
                body: Data("<LoginResponse><sessionToken>s3ss10nTok</sessionToken><ttl>60</ttl></LoginResponse>".utf8))
        }
        let sent = try #require(cassette.entries.first?.request.postData?.text)
        let received = try #require(cassette.entries.first?.response.content.text)

        #expect(!sent.contains("hunter2xyz"))
        #expect(sent.contains("<user>ann</user>"))
        #expect(!received.contains("s3ss10nTok"))
        #expect(received.contains("<ttl>60</ttl>"))
    }
}

@Suite struct CassetteCookieTests {
    @Test func cookiesAreListedByNameWithTheirValuesAsPlaceholders() async throws {
        let cassette = try await recordedCassette([
            HTTPRequest(
                url: testURL("https://api.example.com/a"), fields: [.cookie: "theme=dark; session=s-1234567890"])
        ]) { _ in
            .status(
                200,
                headers: ["Set-Cookie": "sid=new-session-abcdef; Path=/app; Domain=example.com; HttpOnly; Secure"]
            )
        }
        let entry = try #require(cassette.entries.first)
        #expect(entry.request.cookies.map(\.name) == ["theme", "session"])
        #expect(entry.request.cookies.allSatisfy { $0.value.hasPrefix("<redacted-") })
        let set = try #require(entry.response.cookies.first)
        #expect(set.name == "sid")
        #expect(set.value.hasPrefix("<redacted-"))
        #expect(set.path == "/app")
        #expect(set.domain == "example.com")
        #expect(set.httpOnly == true)
        #expect(set.secure == true)
        let text = try harText(cassette)
        #expect(!text.contains("s-1234567890"))
        #expect(!text.contains("new-session-abcdef"))
    }
}

@Suite struct CassettePlaceholderEdgeTests {
    @Test func aSecretJSONValueThatIsAnObjectIsReplacedWhole() async throws {
        let body = #"{"credentials":{"user":"ann","secret":"obj-secret-9911"},"n":1}"#
        let cassette = try await recordedCassette([
            HTTPRequest(
                method: .post,
                url: testURL("https://api.example.com/x"),
                fields: [.contentType: "application/json"],
                body: HTTPBody(Data(body.utf8))
            )
        ])
        let text = try #require(cassette.entries.first?.request.postData?.text)
        #expect(!text.contains("obj-secret-9911"))
        #expect(text.contains("<redacted-1>"))
        #expect(text.contains(#""n":1"#))
    }

    @Test func concurrentIdenticalRequestsAreEachServedADifferentEntry() async throws {
        let cassette = try await recordedCassette(
            Array(repeating: HTTPRequest(url: testURL("https://api.example.com/n")), count: 20),
            reply: numberedReplies()
        )
        let replay = try ReplayingTransport(cassette)
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let response = try await replay.send(HTTPRequest(url: testURL("https://api.example.com/n")))
                    return String(decoding: response.body.bufferedData ?? Data(), as: UTF8.self)
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(bodies == Set((1...20).map(String.init)))
    }
}

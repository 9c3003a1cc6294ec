import Foundation
import HTTPPipelineLogging
import HTTPPipelineRedaction
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Redaction of free text")
struct RedactionTextTests {
    let redaction = Redaction.default

    @Test(
        "Secret name=value pairs are redacted up to the value's end",
        arguments: [
            ("token=abc123", "token=<redacted>"),
            ("x token=abc123&next=1", "x token=<redacted>&next=1"),
            ("password=hunter2 user=bob", "password=<redacted> user=bob"),
            ("(client_secret=s3cr3t)", "(client_secret=<redacted>)"),
            ("api_key='k3y', id=4", "api_key='<redacted>', id=4"),
            ("session = \"a b c\";", "session = \"<redacted>\";"),
            ("access%5Ftoken=abc123", "access%5Ftoken=<redacted>"),
            ("Authorization=Bearer abc123", "Authorization=<redacted>"),
            ("X-Api-Key=k3y", "X-Api-Key=<redacted>"),
            ("user[password]=pw,", "user[password]=<redacted>,"),
        ]
    )
    func secretEqualsPairsAreRedacted(input: String, expected: String) {
        #expect(redaction.text(input) == expected)
    }

    @Test(
        "JSON-ish \"name\": value pairs are redacted, including object and array values",
        arguments: [
            (#"{"password":"hunter2","user":"bob"}"#, #"{"password":"<redacted>","user":"bob"}"#),
            (#"{"api_key": 12345, "n": 1}"#, #"{"api_key": <redacted>, "n": 1}"#),
            (#"{"credentials": {"user": "u", "pin": "1"}, "n": 1}"#, #"{"credentials": <redacted>, "n": 1}"#),
            (#"{"tokens": ["a", "b"]}"#, #"{"tokens": <redacted>}"#),
            (#"{'secret': 'x y'}"#, #"{'secret': '<redacted>'}"#),
            (#"{"token": "esc\"aped"}"#, #"{"token": "<redacted>"}"#),
            (#"{"note": "the token is fine"}"#, #"{"note": "the token is fine"}"#),
        ]
    )
    func jsonishPairsAreRedacted(input: String, expected: String) {
        #expect(redaction.text(input) == expected)
    }

    @Test(
        "name: value pairs are redacted to the end of the line",
        arguments: [
            ("Authorization: Bearer abc.def\nAccept: */*", "Authorization: <redacted>\nAccept: */*"),
            ("x-session-id:42\r\nok", "x-session-id:<redacted>\r\nok"),
            ("password: hunter2 and more", "password: <redacted>"),
            ("Cookie: a=1; b=2", "Cookie: <redacted>"),
        ]
    )
    func colonPairsAreRedactedToEndOfLine(input: String, expected: String) {
        #expect(redaction.text(input) == expected)
    }

    @Test("User info in URLs and in bare user:pass@host is redacted")
    func userInfoInTextIsRedacted() {
        #expect(
            redaction.text("connecting to postgres://app:pw@db.internal:5432/main now")
                == "connecting to postgres://<redacted>:<redacted>@db.internal:5432/main now")
        #expect(
            redaction.text("mirror at deploy:t0ps3cret@mirror.local failed")
                == "mirror at <redacted>:<redacted>@mirror.local failed")
        #expect(redaction.text("mail bob@example.com about it") == "mail bob@example.com about it")
    }

    @Test("Every URL inside text is redacted as by urlString")
    func urlsInsideTextAreRedacted() {
        let text = "GET https://u:p@h.example/a?token=t0k&x=1 failed; retry at \"https://h.example/b?sig=abc\" later"
        #expect(
            redaction.text(text)
                == "GET https://<redacted>:<redacted>@h.example/a?token=<redacted>&x=1 failed; retry at \"https://h.example/b?sig=<redacted>\" later"
        )
    }

    @Test(
        "A credential after a Bearer or Basic word that ends a redacted value is redacted too",
        arguments: [
            // Found by the redaction fuzzer (Fuzz/Regressions/redaction/bearer-after-quoted-secret-name).
            (#""secret": Bearer ZQ7XK2W9VPL4MJ8R  "s""#, #""secret": <redacted> <redacted>  "s""#),
            ("token=abc Bearer ZQ7XK2W9VPL4MJ8R next", "token=<redacted> <redacted> next"),
            ("see https://h.example/Bearer ZQ7XK2W9VPL4MJ8R", "see https://h.example/Bearer <redacted>"),
            (#"{"auth": Basic dXNlcjpwYXNzd29yZA==}"#, #"{"auth": <redacted> <redacted>}"#),
        ]
    )
    func credentialAfterARedactedSchemeWordIsRedacted(input: String, expected: String) {
        #expect(redaction.text(input) == expected)
    }

    @Test("A credential after a Bearer or Basic word is redacted even without a name")
    func schemeWordCredentialsAreRedacted() {
        #expect(redaction.text("sent Bearer eyJhbGciOi.eyJzdWIi.sig123 upstream") == "sent Bearer <redacted> upstream")
        #expect(redaction.text("basic dXNlcjpwYXNz") == "basic <redacted>")
        #expect(redaction.text("Bearer token expired") == "Bearer token expired")
    }

    @Test("Ordinary text is unchanged")
    func ordinaryTextIsUnchanged() {
        let text = "The request timed out after 30 s (attempt 2/3): 12:30:45, ratio=0.5, name: Bob"
        #expect(redaction.text(text) == text)
        #expect(redaction.text("") == "")
    }

    @Test("A URLError's description keeps its domain and code and loses its secrets")
    func urlErrorDescription() throws {
        let failing = "https://alice:pw@api.example.com/v1?access_token=SECRETabc123&page=2"
        let url = try #require(URL(string: failing))
        let error = URLError(
            .timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url, failingURLStringErrorKey: failing])
        let logged = redaction.text(String(describing: error))
        #expect(!logged.contains("SECRETabc123"))
        #expect(!logged.contains("alice"))
        #expect(!logged.contains(":pw@"))
        #expect(logged.contains("access_token=<redacted>&page=2"))
        #expect(logged.contains("-1001"))
    }

    @Test("An OAuth code that follows no NSError domain is still redacted")
    func codeOutsideAnErrorIsRedacted() {
        #expect(redaction.text("Code=123456") == "Code=<redacted>")
        #expect(redaction.text("Domain=X Code=-1001 \"x\"") == "Domain=X Code=-1001 \"x\"")
    }

    @Test("An encoded secret inside an ordinary value is redacted")
    func encodedSecretInsideOrdinaryValue() {
        #expect(redaction.text("redirect=https%3A%2F%2Fa.example%2F%3Fcode%3Dabc123 ok") == "redirect=<redacted> ok")
    }

    @Test(
        "Hostile text never crashes",
        arguments: [
            "%", "%%%", "%00", "=", ":", "@", "\"", "'", "{", "[", "a=", "token=", "token:", "\"token\":", "://",
            "a://",
            "token=\"unterminated", "{\"password\": {\"a\": [", "\u{0}\u{1}token=\u{0}x", "é=é&tökén=ü", "::::@@@@====",
        ]
    )
    func hostileTextNeverCrashes(input: String) {
        let output = redaction.text(input)
        #expect(output.isEmpty == input.isEmpty)
    }

    @Test(
        "Repetitive hostile text is redacted in linear time",
        arguments: ["a=", "{", "\"token\":", "a={", "a=\"", "x:y@", "token=Bearer ", "\"a\":\"", "https://", "%25"]
    )
    func repetitiveHostileTextIsLinear(pattern: String) {
        let input = String(repeating: pattern, count: 50_000)
        let clock = ContinuousClock()
        var output = ""
        let elapsed = clock.measure { output = redaction.text(input) }
        #expect(!output.isEmpty)
        #expect(elapsed < .seconds(10))
    }

    @Test("Very long text is cut safely, with a note, in bounded time")
    func longTextIsCut() {
        let long = String(repeating: "harmless words ", count: 100_000) + "token=LEAKED"
        let clock = ContinuousClock()
        var output = ""
        let elapsed = clock.measure { output = redaction.text(long) }
        #expect(!output.contains("LEAKED"))
        #expect(output.hasSuffix("more bytes)"))
        #expect(elapsed < .seconds(20))
    }

    @Test("A URN's colons are not name: value pairs, so OAuth grant types stay visible")
    func urnsAreNotPairs() {
        let grant = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=Zq8XmR2v"
        #expect(
            redaction.body(Data(grant.utf8), contentType: "application/x-www-form-urlencoded", limit: 4096)
                == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=<redacted>")
        #expect(
            redaction.text("type urn:ietf:params:oauth:token-type:jwt, then token: abc")
                == "type urn:ietf:params:oauth:token-type:jwt, then token: <redacted>")
    }
}

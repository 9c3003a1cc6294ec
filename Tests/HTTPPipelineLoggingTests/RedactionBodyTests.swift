import Foundation
import HTTPPipelineLogging
import HTTPPipelineRedaction
import Testing

@Suite("Redaction of bodies")
struct RedactionBodyTests {
    let redaction = Redaction.default

    func body(_ text: String, _ contentType: String?, limit: Int = 4096) -> String {
        redaction.body(Data(text.utf8), contentType: contentType, limit: limit)
    }

    @Test("An empty body gives an empty string whatever its type")
    func emptyBody() {
        #expect(redaction.body(Data(), contentType: "application/json", limit: 100) == "")
        #expect(redaction.body(Data(), contentType: nil, limit: 0) == "")
    }

    @Test("JSON secret fields are redacted at any depth, inside arrays, and keys keep their order")
    func nestedJSON() {
        let json =
            #"{"z":1,"user":{"name":"bob","password":"hunter2","devices":[{"id":1,"apiKey":"k1"},{"id":2,"session_token":"t2"}]},"a":[{"b":{"c":{"client_secret":"deep"}}}]}"#
        let expected =
            #"{"z":1,"user":{"name":"bob","password":"<redacted>","devices":[{"id":1,"apiKey":"<redacted>"},{"id":2,"session_token":"<redacted>"}]},"a":[{"b":{"c":{"client_secret":"<redacted>"}}}]}"#
        #expect(body(json, "application/json; charset=utf-8") == expected)
    }

    @Test("A secret JSON key hides its whole value, even an object or an array")
    func secretObjectAndArrayValues() {
        let json = #"{"credentials":{"user":"u","pin":"1234"},"tokens":["a","b"],"ok":true,"n":null}"#
        #expect(
            body(json, "application/vnd.api+json")
                == #"{"credentials":"<redacted>","tokens":"<redacted>","ok":true,"n":null}"#)
    }

    @Test("Cookies and credential headers echoed as JSON keys are redacted, as httpbin's echoes return them")
    func echoedCookiesAndCredentialHeaders() {
        // httpbin's /cookies, /response-headers and /headers, each carrying a value no other rule catches.
        #expect(
            body(#"{"cookies":{"sid":"c00kie","theme":"dark"}}"#, "application/json") == #"{"cookies":"<redacted>"}"#)
        #expect(
            body(#"{"Content-Type":"text/plain","Set-Cookie":"sid=c00kie; Path=/"}"#, "application/json")
                == #"{"Content-Type":"text/plain","Set-Cookie":"<redacted>"}"#)
        #expect(
            body(#"{"headers":{"Proxy-Authorization":"Token pr0xy","Cookie":"sid=c00kie"}}"#, "application/json")
                == #"{"headers":{"Proxy-Authorization":"<redacted>","Cookie":"<redacted>"}}"#)
        #expect(
            body("cookies=c00kie&set-cookie=c00kie&x=1", "application/x-www-form-urlencoded")
                == "cookies=<redacted>&set-cookie=<redacted>&x=1")
    }

    @Test("JSON keys added by the user are redacted, case-insensitively")
    func userAddedBodyFields() {
        let custom = redaction.redactingBodyFields(["SSN"])
        let output = custom.body(
            Data(#"{"ssn":"123-45-6789","name":"x"}"#.utf8), contentType: "application/json", limit: 100)
        #expect(output == #"{"ssn":"<redacted>","name":"x"}"#)
    }

    @Test("A URL with a token inside a JSON string is redacted too")
    func urlInsideJSONString() {
        #expect(
            body(#"{"next":"https://h.example/p?page=2&access_token=abc"}"#, "application/json")
                == #"{"next":"https://h.example/p?page=2&access_token=<redacted>"}"#)
    }

    @Test("A body without a content type that looks like JSON is treated as JSON")
    func sniffedJSON() {
        #expect(body(#" [{"token":"t"}]"#, nil) == #" [{"token":"<redacted>"}]"#)
    }

    @Test("Invalid JSON falls back to the text rules")
    func invalidJSONFallsBack() {
        #expect(body(#"{"password": "hunter2", oops}"#, "application/json") == #"{"password": "<redacted>", oops}"#)
        #expect(body(#"{"token": "abc", "n": 1e400}"#, "application/json") == #"{"token": "<redacted>", "n": 1e400}"#)
    }

    @Test("Deeply nested JSON is handled by the text rules without exhausting the stack")
    func deeplyNestedJSON() {
        let deep = String(repeating: "[", count: 50_000) + #"{"token":"abc"}"# + String(repeating: "]", count: 50_000)
        let output = redaction.body(Data(deep.utf8), contentType: "application/json", limit: 1_000_000)
        #expect(!output.contains("abc"))
    }

    @Test(
        "Form bodies have secret fields redacted, with encoded names and plus signs understood",
        arguments: [
            ("username=bob&password=hunter2&remember=1", "username=bob&password=<redacted>&remember=1"),
            (
                "grant_type=refresh_token&refresh_token=r1&client_secret=s2",
                "grant_type=refresh_token&refresh_token=<redacted>&client_secret=<redacted>"
            ),
            (
                "access%5Ftoken=a&user%5Bpassword%5D=b&q=a+b",
                "access%5Ftoken=<redacted>&user%5Bpassword%5D=<redacted>&q=a+b"
            ),
            ("client+secret=x&api+key=y", "client+secret=<redacted>&api+key=<redacted>"),
            // `pass+word` is not `password`, but `pass` is a secret word of its own (`user=bob&pass=…`).
            ("q=a+b&note=hello+world&pass%2Bword=y", "q=a+b&note=hello+world&pass%2Bword=<redacted>"),
            ("q=a+b&note=hello+world&by%2Bpass=y", "q=a+b&note=hello+world&by%2Bpass=<redacted>"),
            ("q=a+b&bypass=y&compass=z", "q=a+b&bypass=y&compass=z"),
        ]
    )
    func formBodies(input: String, expected: String) {
        #expect(body(input, "application/x-www-form-urlencoded") == expected)
    }

    @Test("The query allow-list does not apply to bodies, which stay deny-by-default")
    func queryAllowListDoesNotApplyToBodies() {
        let custom = redaction.allowingQueryItems(["code"])
        let output = custom.body(
            Data("code=abc&x=1".utf8), contentType: "application/x-www-form-urlencoded", limit: 100)
        #expect(output == "code=<redacted>&x=1")
        #expect(
            custom.redactingQueryItems(["pin"]).body(
                Data("pin=1234".utf8), contentType: "application/x-www-form-urlencoded", limit: 100) == "pin=<redacted>"
        )
    }

    @Test(
        "Odd encodings in a form body never crash and never leak",
        arguments: ["token=%00abc", "%=1&token=%", "access%5Ftoken%00=x&%zz=%", "=&&=&"])
    func oddFormEncodings(input: String) {
        let output = body(input, "application/x-www-form-urlencoded")
        #expect(!output.contains("abc"))
        #expect(!output.contains("x&"))
    }

    @Test("The mark never reveals the length of what it hides")
    func markHidesLength() {
        #expect(body("token=a", "text/plain") == body("token=\(String(repeating: "b", count: 500))", "text/plain"))
    }

    @Test("A form body that is really JSON still loses its secrets")
    func mislabelledForm() {
        #expect(body(#"{"password":"x"}"#, "application/x-www-form-urlencoded") == #"{"password":"<redacted>"}"#)
    }

    @Test("Text bodies have secret-looking pairs redacted")
    func textBodies() {
        let text = "Rotated.\napi_key=abc123 and \"client_secret\": \"s3\"\nAuthorization: Bearer xyz\nbye"
        #expect(
            body(text, "text/plain")
                == "Rotated.\napi_key=<redacted> and \"client_secret\": \"<redacted>\"\nAuthorization: <redacted>\nbye")
        #expect(body("token=abc", "application/x-unknown") == "token=<redacted>")
    }

    @Test(
        "Binary content types are summarised and never dumped",
        arguments: [
            ("image/png", "<binary body: 5 bytes, image/png>"),
            ("application/octet-stream", "<binary body: 5 bytes, application/octet-stream>"),
            ("Audio/MPEG; rate=44100", "<binary body: 5 bytes, audio/mpeg>"),
            ("multipart/form-data; boundary=x", "<binary body: 5 bytes, multipart/form-data>"),
            ("application/pdf", "<binary body: 5 bytes, application/pdf>"),
        ]
    )
    func binaryContentTypes(contentType: String, expected: String) {
        #expect(body("token", contentType) == expected)
    }

    @Test("Bytes that are not UTF-8, or contain NUL, are summarised whatever the type says")
    func nonUTF8Bodies() {
        let bytes = Data([0x74, 0x6F, 0x6B, 0xFF, 0xFE, 0x3D, 0x61])
        #expect(redaction.body(bytes, contentType: "text/plain", limit: 100) == "<binary body: 7 bytes, text/plain>")
        #expect(redaction.body(bytes, contentType: nil, limit: 100) == "<binary body: 7 bytes>")
        #expect(
            redaction.body(Data("a\u{0}b".utf8), contentType: "application/json", limit: 100)
                == "<binary body: 3 bytes, application/json>")
    }

    @Test("Output is truncated after redaction on a character boundary with a note")
    func truncationAfterRedaction() {
        #expect(body("hello world, this is long", "text/plain", limit: 5) == "hello… (20 more bytes; limit 5)")
        #expect(body("ééééé", "text/plain", limit: 3) == "é… (8 more bytes; limit 3)")
        // The family emoji is one 18-byte character: a cut inside it drops it whole.
        #expect(body("👩‍👩‍👧 family", "text/plain", limit: 17) == "… (25 more bytes; limit 17)")
        #expect(body("👩‍👩‍👧 family", "text/plain", limit: 19) == "👩‍👩‍👧 … (6 more bytes; limit 19)")
        // Redaction first: the secret is gone before the cut, and the cut never lands in a mark.
        #expect(
            body("password=hunter2-very-long-secret-value&x=1", "text/plain", limit: 14)
                == "password=… (14 more bytes; limit 14)"
        )
    }

    @Test(
        "A cut never shows part of a secret, wherever it falls",
        arguments: Array(1...80)
    )
    func truncationNeverShowsPartOfASecret(limit: Int) {
        let secret = "Qz8w3N5v7x9K2m4P6r8T0y1U"
        let inputs = [
            ("text/plain", "intro text, token=\(secret) and Authorization: Bearer \(secret)"),
            ("application/json", #"{"a":"b","password":"\#(secret)","nested":{"api_key":"\#(secret)"}}"#),
            ("application/x-www-form-urlencoded", "a=b&client_secret=\(secret)&c=d"),
            ("text/plain", "GET https://u:\(secret)@h.example/?sig=\(secret) failed"),
        ]
        for (type, text) in inputs {
            let output = body(text, type, limit: limit)
            #expect(!output.contains(secret.prefix(4)), "\(type) at \(limit): \(output)")
        }
    }

    @Test(
        "A scan that stops just before an @ or inside a credential never shows user info or part of it",
        arguments: [" user:Qz8w3N5v7x9K@example.com", " Bearer Qz8w/3N5v7x9K2m4P6r8"]
    )
    func scanCutBeforeTheRestOfASecret(tail: String) {
        // A long secret shrinks to a mark, so text from the very end of the scanned bytes (four
        // times the limit) is shown; move the tail across that end.
        let limit = 64
        for length in 180..<260 {
            let text = "password=" + String(repeating: "A", count: length) + tail
            let output = body(text, "text/plain", limit: limit)
            #expect(!output.contains("Qz8w") && !output.contains("user"), "\(length): \(output)")
        }
    }

    @Test("A 10 MB body is scanned only as far as the limit needs, in a fraction of a second")
    func hugeBody() {
        var text = #"{"items":["#
        while text.utf8.count < 10_000_000 { text += #"{"id":12345,"name":"widget","token":"t0k3nVALUE"},"# }
        text += "1]}"
        let data = Data(text.utf8)
        let clock = ContinuousClock()
        var output = ""
        let elapsed = clock.measure { output = redaction.body(data, contentType: "application/json", limit: 4096) }
        #expect(!output.contains("t0k3nVALUE"))
        #expect(output.hasSuffix("more bytes; limit 4096)"))
        #expect(output.utf8.count < 4200)
        #expect(elapsed < .seconds(5), "linear, not quadratic: \(elapsed)")
    }

    @Test("A zero or negative limit shows only the note")
    func zeroLimit() {
        #expect(body("token=abc", "text/plain", limit: 0) == "… (9 more bytes; limit 0)")
        #expect(body("abc def", "text/plain", limit: -5) == "… (7 more bytes; limit 0)")
    }
}

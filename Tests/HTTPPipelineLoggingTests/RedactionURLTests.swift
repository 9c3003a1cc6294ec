import Foundation
import HTTPPipelineLogging
import HTTPPipelineRedaction
import Testing

@Suite("Redaction of URLs")
struct RedactionURLTests {
    let redaction = Redaction.default

    @Test(
        "Built-in secret query names have their values redacted and keep their names",
        arguments: [
            "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "key", "client_secret",
            "password", "code", "signature", "sig", "x-amz-signature", "X-Amz-Signature", "x-amz-credential",
            "X-Amz-Security-Token", "auth", "session", "ACCESS_TOKEN", "Code",
        ]
    )
    func builtInSecretQueryNamesAreRedacted(name: String) {
        let text = "https://api.example.com/v1/items?page=2&\(name)=s3cr3tV4lue&lang=en"
        #expect(redaction.urlString(text) == "https://api.example.com/v1/items?page=2&\(name)=<redacted>&lang=en")
    }

    @Test(
        "Query names containing a secret word have their values redacted",
        arguments: [
            "my_token_v2", "clientSecret", "userPassword", "X-Goog-Signature", "aws_credential", "sessionid",
            "x_apikey", "the_api_key", "user[password]", "data[code]", "key[]",
        ]
    )
    func queryNamesContainingSecretWordsAreRedacted(name: String) {
        #expect(
            redaction.urlString("https://h.example/?\(name)=s3cr3tV4lue") == "https://h.example/?\(name)=<redacted>")
    }

    @Test(
        "Percent-encoded and double-encoded secret names are recognised, and the encoded name is kept",
        arguments: [
            "access%5Ftoken", "access%5ftoken", "access%255Ftoken", "%61ccess_token", "%2561%2563cess%5Ftoken",
            "to%6Ben",
        ]
    )
    func encodedSecretNamesAreRecognised(name: String) {
        #expect(
            redaction.urlString("https://h.example/a?\(name)=s3cr3tV4lue&x=1")
                == "https://h.example/a?\(name)=<redacted>&x=1")
    }

    @Test("A name encoded more than four times counts as secret rather than risk a leak")
    func deeplyEncodedNamesAreRedacted() {
        #expect(
            redaction.urlString("https://h.example/?a%2525252525=v") == "https://h.example/?a%2525252525=<redacted>")
    }

    @Test("Ordinary query items are kept exactly as encoded")
    func ordinaryQueryItemsAreKept() {
        let text = "https://h.example/search?q=swift%20http&page=2&sort=-date&empty=&flag"
        #expect(redaction.urlString(text) == text)
    }

    @Test("User and password in user info are both replaced by the mark")
    func userInfoIsRedacted() throws {
        let url = try #require(URL(string: "https://alice:hunter2@api.example.com:8443/v1?x=1"))
        #expect(redaction.url(url) == "https://<redacted>:<redacted>@api.example.com:8443/v1?x=1")
        #expect(redaction.urlString("ftp://alice@files.example/pub") == "ftp://<redacted>@files.example/pub")
    }

    @Test("A password containing an unencoded slash does not leak through the path")
    func passwordWithSlashIsRedacted() {
        #expect(redaction.urlString("https://bob:pa/ss@h.example/x") == "https://<redacted>:<redacted>@h.example/x")
    }

    @Test("Allowed query names are shown, and user additions are redacted")
    func allowAndAddQueryNames() {
        let custom = redaction.allowingQueryItems(["CODE"]).redactingQueryItems(["tenant"])
        #expect(
            custom.urlString("https://h.example/?code=42&tenant=acme&token=t0k3n")
                == "https://h.example/?code=42&tenant=<redacted>&token=<redacted>")
    }

    @Test("Secret items in the fragment and in path parameters are redacted")
    func fragmentAndPathParameters() {
        #expect(
            redaction.urlString("https://h.example/cb#access_token=abc123&state=xyz")
                == "https://h.example/cb#access_token=<redacted>&state=xyz")
        #expect(
            redaction.urlString("https://h.example/a;jsessionid=ABC123/b?x=1")
                == "https://h.example/a;jsessionid=<redacted>/b?x=1")
        #expect(redaction.urlString("https://h.example/docs#section-2") == "https://h.example/docs#section-2")
    }

    @Test("A semicolon separator cannot smuggle a secret past the query rules")
    func semicolonSeparatorDoesNotLeak() {
        #expect(
            redaction.urlString("https://h.example/?a=1;token=t0k3nValue") == "https://h.example/?a=1;token=<redacted>")
    }

    @Test("A query value that hides an encoded URL with a secret is redacted whole")
    func nestedEncodedSecretsAreRedacted() {
        let text = "https://h.example/login?next=https%3A%2F%2Fapp.example%2Fcb%3Fcode%3DabcSecret1&lang=en"
        #expect(redaction.urlString(text) == "https://h.example/login?next=<redacted>&lang=en")
        let harmless = "https://h.example/login?next=https%3A%2F%2Fapp.example%2Fhome&lang=en"
        #expect(redaction.urlString(harmless) == harmless)
    }

    @Test(
        "Odd encodings never crash and never leak",
        arguments: [
            ("https://h.example/?token=%00abc&x=%", "https://h.example/?token=<redacted>&x=%"),
            ("https://h.example/?%=1&token=%zz%", "https://h.example/?%=1&token=<redacted>"),
            ("https://h.example/?access%5Ftoken%00=v%E2%82", "https://h.example/?access%5Ftoken%00=<redacted>"),
            ("https://h.example/?&&=&token&token=", "https://h.example/?&&=&token&token="),
            ("https://h.example/?%25%32%35=ok", "https://h.example/?%25%32%35=ok"),
            ("https://h.example/?tok%C3%A9n=ok&key=%FF%FE", "https://h.example/?tok%C3%A9n=ok&key=<redacted>"),
        ]
    )
    func oddEncodings(input: String, expected: String) {
        #expect(redaction.urlString(input) == expected)
    }

    @Test("A URL object with odd encodings is redacted from its own text")
    func urlObjectWithOddEncodings() throws {
        let url = try #require(URL(string: "https://h.example/p?access%5Ftoken=abc%2Bdef&q=%25"))
        let logged = redaction.url(url)
        #expect(!logged.contains("abc"))
        #expect(logged.contains("access%5Ftoken=<redacted>"))
    }

    @Test("Relative references and protocol-relative URLs are redacted too")
    func relativeReferences() {
        #expect(redaction.urlString("/v1/items?api_key=k3y&page=1") == "/v1/items?api_key=<redacted>&page=1")
        #expect(redaction.urlString("//u:p@cdn.example/x") == "//<redacted>:<redacted>@cdn.example/x")
    }

    @Test("Text that is not a URL falls back to the free-text rules")
    func nonURLTextFallsBack() {
        #expect(
            redaction.urlString("not a url: token=abc123 and bob:pw@db.local")
                == "not a url: token=<redacted> and <redacted>:<redacted>@db.local")
        #expect(redaction.urlString("token:abc123") == "token:<redacted>")
        #expect(redaction.urlString("") == "")
    }

    @Test("Empty and bare URLs come back unchanged")
    func bareURLs() throws {
        #expect(redaction.urlString("https://h.example") == "https://h.example")
        #expect(redaction.urlString("https://h.example:8080/") == "https://h.example:8080/")
        #expect(redaction.urlString("https://[::1]:8443/x?y=1") == "https://[::1]:8443/x?y=1")
        let url = try #require(URL(string: "https://h.example/a/b"))
        #expect(redaction.url(url) == "https://h.example/a/b")
    }
}

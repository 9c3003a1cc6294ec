import HTTPPipelineLogging
import HTTPPipelineRedaction
import Testing

@Suite("Redaction of headers")
struct RedactionHeaderTests {
    let redaction = Redaction.default

    @Test("The mark is a fixed string")
    func markIsFixed() {
        #expect(Redaction.mark == "<redacted>")
    }

    @Test(
        "Built-in secret header names are redacted in any case",
        arguments: [
            "Authorization", "authorization", "AUTHORIZATION", "Proxy-Authorization", "Cookie", "cookie",
            "Set-Cookie", "SET-COOKIE", " Authorization ",
        ]
    )
    func builtInSecretHeaderNamesAreRedacted(name: String) {
        #expect(redaction.isSecretHeader(name))
        #expect(redaction.headerValue(name: name, value: "Bearer abc.def.ghi") == Redaction.mark)
    }

    @Test(
        "Header names containing a secret word are redacted",
        arguments: [
            "X-Api-Token", "X-Client-Secret", "X-Api-Key", "X-Password", "X-Passwd", "X-Session-Id",
            "X-Signature", "X-Upstream-Credential", "X-Auth-User", "x-amz-security-token",
        ]
    )
    func headerNamesContainingSecretWordsAreRedacted(name: String) {
        #expect(redaction.isSecretHeader(name))
        #expect(redaction.headerValue(name: name, value: "value-1234") == Redaction.mark)
    }

    @Test(
        "Ordinary headers are shown unchanged",
        arguments: [
            ("Accept", "application/json"), ("Content-Type", "text/plain; charset=utf-8"),
            ("User-Agent", "pipeline/1.0 (Linux)"), ("Cache-Control", "max-age=0, no-cache"),
            ("X-Request-Id", "7f3c"), ("Content-Length", "2048"), ("Date", "Tue, 15 Nov 1994 08:12:31 GMT"),
        ]
    )
    func ordinaryHeadersAreShownUnchanged(name: String, value: String) {
        #expect(!redaction.isSecretHeader(name))
        #expect(redaction.headerValue(name: name, value: value) == value)
    }

    @Test("Extra header names added by the user are redacted, case-insensitively")
    func userAddedHeaderNamesAreRedacted() {
        let custom = redaction.redactingHeaders(["X-Tenant-Number"])
        #expect(custom.isSecretHeader("x-tenant-number"))
        #expect(custom.headerValue(name: "X-TENANT-NUMBER", value: "1234") == Redaction.mark)
        #expect(!redaction.isSecretHeader("X-Tenant-Number"))
    }

    @Test(
        "An allowed header is shown even when it matches a built-in name, a pattern or an addition",
        arguments: ["Authorization", "X-Request-Key-Id", "X-Tenant-Pin"]
    )
    func allowListWins(name: String) {
        let custom = redaction.redactingHeaders(["X-Tenant-Pin"]).allowingHeaders([name.uppercased()])
        #expect(!custom.isSecretHeader(name))
        #expect(custom.headerValue(name: name, value: "Bearer visible-on-purpose") == "Bearer visible-on-purpose")
    }

    @Test("Builders return a modified copy and leave the original alone")
    func buildersReturnCopies() {
        _ = redaction.allowingHeaders(["Authorization"])
        #expect(redaction.isSecretHeader("Authorization"))
        #expect(Redaction.default.isSecretHeader("Authorization"))
    }

    @Test("Secrets inside ordinary header values, such as a Location URL, are redacted")
    func secretsInsideOrdinaryHeaderValuesAreRedacted() {
        let location = redaction.headerValue(
            name: "Location", value: "https://app.example/cb?state=xyz&code=SplxlOBeZQQYbYS6WxSbIA")
        #expect(location == "https://app.example/cb?state=xyz&code=<redacted>")
        let link = redaction.headerValue(
            name: "Link", value: "<https://api.example/items?page=2&access_token=abc123def>; rel=\"next\"")
        #expect(link == "<https://api.example/items?page=2&access_token=<redacted>>; rel=\"next\"")
    }

    @Test("An empty header value stays empty unless its name is secret")
    func emptyHeaderValues() {
        #expect(redaction.headerValue(name: "Accept", value: "") == "")
        #expect(redaction.headerValue(name: "Authorization", value: "") == Redaction.mark)
    }
}

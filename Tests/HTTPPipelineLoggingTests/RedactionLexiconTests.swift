import Foundation
import HTTPPipelineLogging
import HTTPPipelineRedaction
import Testing

/// Names are judged by their words (camelCase, snake_case, kebab-case, dots), so a name the lists
/// never spelled out is still secret when one of its words is; and a word that merely contains a
/// secret word (`keyboard`, `Author`) stays visible.
@Suite("Redaction of names by their words")
struct RedactionLexiconTests {
    let redaction = Redaction.default
    static let value = "Vq3Zr8Ln"

    /// The names a hostile user got past the name lists (issue 17), and the compounds the lexicon
    /// must catch by their words.
    static let secretNames = [
        "privateKey", "signingKey", "passphrase", "pwd", "pin", "otp", "client_assertion", "assertion",
        "device_code", "authorizationCode", "jwt", "PHPSESSID", "sid", "cvv", "x-api-token", "refreshTokenHint",
        "user_code", "code_verifier", "SAMLResponse", "connect.sid", "JSESSIONID", "pass", "mfaCode", "cvc",
        "X-Amz-Credential", "accessKey", "apiKeys", "client-secret", "totp_seed",
    ]

    /// Names that contain a secret word without being one, or that pair one with a word that
    /// makes it public.
    static let visibleNames = [
        "Author", "keyboard", "monkey", "tokenizer", "WWW-Authenticate", "Proxy-Authenticate", "authorized",
        "code_challenge", "code_challenge_method", "status_code", "countryCode", "Idempotency-Key", "publicKey",
        "token_type", "max_tokens", "prompt_tokens", "Authentication-Info", "keyword", "secretary", "X-Amz-Date",
        "X-Amz-SignedHeaders", "Access-Control-Allow-Credentials", "client_assertion_type",
    ]

    @Test("A JSON key is secret by its words, whatever the size of the body", arguments: secretNames)
    func jsonKeysAreSecretByTheirWords(name: String) {
        let json = #"{"\#(name)": "\#(Self.value)", "n": 1}"#
        let shown = redaction.body(Data(json.utf8), contentType: "application/json", limit: 4096)
        #expect(!shown.contains(Self.value), "\(shown)")
    }

    @Test("A form field and a query item are secret by their words", arguments: secretNames)
    func formAndQueryNamesAreSecretByTheirWords(name: String) {
        let form = redaction.body(
            Data("a=1&\(name)=\(Self.value)&b=2".utf8), contentType: "application/x-www-form-urlencoded", limit: 4096)
        #expect(!form.contains(Self.value), "\(form)")
        let url = redaction.urlString("https://h.example/p?a=1&\(name)=\(Self.value)&b=2")
        #expect(!url.contains(Self.value), "\(url)")
    }

    @Test(
        "A header is secret by its words",
        arguments: ["Set-Cookie2", "X-Sid", "X-Signing-Key", "X-Client-Assertion", "X-Otp", "X-PHPSESSID"])
    func headersAreSecretByTheirWords(name: String) {
        #expect(redaction.isSecretHeader(name))
        #expect(redaction.headerValue(name: name, value: Self.value) == Redaction.mark)
    }

    @Test(
        "A name that only contains a secret word, or pairs it with a public one, stays visible", arguments: visibleNames
    )
    func safeWordsStayVisible(name: String) {
        #expect(!redaction.isSecretHeader(name), "\(name) as a header")
        #expect(redaction.headerValue(name: name, value: Self.value) == Self.value)
        let json = #"{"\#(name)":"\#(Self.value)"}"#
        #expect(redaction.body(Data(json.utf8), contentType: "application/json", limit: 4096).contains(Self.value))
        let url = "https://h.example/p?\(name)=\(Self.value)"
        #expect(redaction.urlString(url) == url)
    }

    @Test("A secret name in free text is judged by its words too")
    func freeTextNamesAreJudgedByWords() {
        #expect(redaction.text("signingKey=\(Self.value) ok") == "signingKey=<redacted> ok")
        #expect(redaction.text(#"{"clientAssertion": "\#(Self.value)"}"#) == #"{"clientAssertion": "<redacted>"}"#)
        #expect(redaction.text("keyboard=\(Self.value)") == "keyboard=\(Self.value)")
    }
}

import Foundation
import HTTPPipelineLogging
import HTTPPipelineRedaction
import Testing

/// Secrets recognised by their shape are redacted on every surface, whatever their name; values
/// that only look technical (UUIDs, hashes, ETags, request ids, image data) stay visible.
@Suite("Redaction of secrets by their shape")
struct RedactionShapeTests {
    let redaction = Redaction.default

    /// One credential of each published shape (made up, in the documented formats), with the
    /// part that must never show.
    static let shaped: [(name: String, secret: String, tell: String)] = [
        ("GitHub token", "ghp_R7tQ2mXw9LpZ4vKc8NbJ3hYs6DfGa1EuT5oW", "Ys6DfGa1EuT5oW"),
        (
            "GitHub fine-grained token",
            "github_pat_11AZQ3XKY0r8WvTn2LpKcQ_h7JmXc9RtBq2VnLs8KpWz4YfDg6HaE3uN5oTj1RxCvM0bQ2sZk7LwP9dF",
            "RxCvM0bQ2sZk7LwP9dF"
        ),
        ("GitLab token", "glpat-x7Kq2MzR9vLw4NtP8cYb", "vLw4NtP8cYb"),
        ("Slack bot token", "xoxb-2849173650-4817263509-Zq8XmR2vLp7KwN4tYc9BjH3s", "KwN4tYc9BjH3s"),
        ("Stripe secret key", "sk_live_51Mz8QkL2vRt9XwPnC4bY7hJ", "XwPnC4bY7hJ"),
        ("AWS access key id", "AKIAQ7XM2RZP4KVL9TNB", "Q7XM2RZP4KVL9TNB"),
        ("Google API key", "AIzaSyD8x2Kq9LmZ4vRt7WnPc3JbY6hFg1EsT0o", "Y6hFg1EsT0o"),
        ("Google OAuth token", "ya29.a0AfH6SMBx7Kq2MzR9vLw4NtP8cYb3Jh6Fg1EsT0oQ", "Jh6Fg1EsT0oQ"),
        ("OpenAI project key", "sk-proj-Zq8XmR2vLp7KwN4tYc9BjH3sT5gF1dA6", "BjH3sT5gF1dA6"),
        ("npm token", "npm_Zq8XmR2vLp7KwN4tYc9BjH3sT5gF1dA6xQ9w", "sT5gF1dA6xQ9w"),
        (
            "JSON Web Token",
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9."
                + "Zq8XmR2vLp7KwN4tYc9BjH3sT5gF1dA6xQ9wE0rU2iO",
            "eyJzdWIiOiIxMjM0NTY3ODkw"
        ),
        ("Telegram bot token", "5839201746:AAHq7Zt2XkR9mWvLp4NcB8sYd3JfGh6TuEo", "AAHq7Zt2XkR9mWvLp4"),
        ("random API key", "Zq8XmR2vLp7KwN4tYc9BjH3sT5gF1dA6xQ9wE0rU", "Yc9BjH3sT5gF1dA6"),
    ]

    static var shapedNames: [String] { shaped.map(\.name) }

    static func tell(_ name: String) -> (secret: String, tell: String) {
        let found = shaped.first { $0.name == name } ?? shaped[0]
        return (found.secret, found.tell)
    }

    @Test("A shaped credential in an ordinary header's value is redacted", arguments: shapedNames)
    func headerValue(name: String) {
        let (secret, tell) = Self.tell(name)
        let shown = redaction.headerValue(name: "X-Upstream", value: "relay \(secret) v2")
        #expect(!shown.contains(tell), "\(shown)")
        #expect(shown.hasPrefix("relay ") && shown.hasSuffix(" v2"), "\(shown)")
    }

    @Test("A shaped credential in an ordinary query or form value is redacted", arguments: shapedNames)
    func queryAndFormValues(name: String) {
        let (secret, tell) = Self.tell(name)
        let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
        let url = redaction.urlString("https://h.example/p?page=2&note=\(encoded)&lang=en")
        #expect(url == "https://h.example/p?page=2&note=<redacted>&lang=en", "\(url)")
        let form = redaction.body(
            Data("a=1&note=\(encoded)".utf8), contentType: "application/x-www-form-urlencoded", limit: 4096)
        #expect(!form.contains(tell), "\(form)")
    }

    @Test("A shaped credential as a path segment is redacted", arguments: shapedNames)
    func pathSegment(name: String) {
        let (secret, tell) = Self.tell(name)
        let url = redaction.urlString("https://h.example/v1/\(secret)/items?page=2")
        #expect(!url.contains(tell), "\(url)")
        #expect(url.hasPrefix("https://h.example/v1/") && url.hasSuffix("/items?page=2"), "\(url)")
    }

    @Test("A shaped credential in a JSON string or free text is redacted", arguments: shapedNames)
    func jsonAndText(name: String) {
        let (secret, tell) = Self.tell(name)
        let json = redaction.body(
            Data(#"{"note":"use \#(secret) here","n":1}"#.utf8), contentType: "application/json", limit: 4096)
        #expect(!json.contains(tell), "\(json)")
        let text = redaction.text("upstream rejected \(secret) (expired)")
        #expect(!text.contains(tell), "\(text)")
        #expect(text.hasPrefix("upstream rejected ") && text.hasSuffix(" (expired)"), "\(text)")
    }

    @Test("A PEM private key block is redacted between its markers, in text and in a JSON string")
    func privateKeyBlocks() {
        let body = "MIIEowIBAAKCAQEA7qZ3mX9vR4tKw8NcP3bL2jH6Fg1EsT0o\nQ7XM2RZP4KVL9TNBaYc9BjH3sT5gF1dA6xQ9wE0rU2iO"
        let pem = "-----BEGIN RSA PRIVATE KEY-----\n\(body)\n-----END RSA PRIVATE KEY-----"
        let text = redaction.text("the key follows\n\(pem)\ndone")
        #expect(!text.contains("MIIEowIBAAKC") && !text.contains("sT5gF1dA6"), "\(text)")
        #expect(text.contains("-----BEGIN RSA PRIVATE KEY-----") && text.hasSuffix("done"), "\(text)")
        let escaped = pem.replacingOccurrences(of: "\n", with: "\\n")
        let json = redaction.body(
            Data(#"{"type":"service_account","pem":"\#(escaped)"}"#.utf8), contentType: "application/json",
            limit: 4096)
        #expect(!json.contains("MIIEowIBAAKC") && !json.contains("sT5gF1dA6"), "\(json)")
        let base64 = Data(pem.utf8).base64EncodedString()
        let encoded = redaction.text("client-key-data: \(base64)")
        #expect(!encoded.contains(String(base64.suffix(24))), "\(encoded)")
    }

    @Test("URLs that carry their secret in the path are redacted there")
    func secretBearingURLShapes() {
        let cases: [(String, String)] = [
            (
                "https://api.telegram.org/bot5839201746:AAHq7Zt2XkR9mWvLp4NcB8sYd3JfGh6TuEo/sendMessage?chat_id=42",
                "https://api.telegram.org/<redacted>/sendMessage?chat_id=42"
            ),
            (
                "https://hooks.slack.com/services/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",
                "https://hooks.slack.com/services/<redacted>/<redacted>/<redacted>"
            ),
            (
                "https://discord.com/api/webhooks/1184726350918273645/Zq8XmR2vLp7KwN4tYc9BjH3sT5gF1dA6xQ9wE0rU",
                "https://discord.com/api/webhooks/<redacted>/<redacted>"
            ),
            (
                "https://app.example.com/password/reset/k7Rz2Qw9Xm4Lp8Vn/confirm",
                "https://app.example.com/password/reset/<redacted>/confirm"
            ),
            (
                "https://app.example.com/invite/550e8400-e29b-41d4-a716-446655440000",
                "https://app.example.com/invite/<redacted>"
            ),
        ]
        for (input, expected) in cases {
            #expect(redaction.urlString(input) == expected)
        }
    }

    @Test("A presigned URL shows neither its key id nor its signature")
    func presignedURL() {
        let url =
            "https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            + "&X-Amz-Credential=AKIAQ7XM2RZP4KVL9TNB%2F20240501%2Fus-east-1%2Fs3%2Faws4_request"
            + "&X-Amz-Date=20240501T120000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host"
            + "&X-Amz-Signature=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        let shown = redaction.urlString(url)
        #expect(!shown.contains("Q7XM2RZP4KVL9TNB") && !shown.contains("9f86d081884c7d"), "\(shown)")
        #expect(shown.contains("X-Amz-Date=20240501T120000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host"))
    }

    /// Values that look technical but are not secrets: they must stay visible.
    static let controls: [(name: String, value: String)] = [
        ("X-Correlation", "550e8400-e29b-41d4-a716-446655440000"),
        ("X-Request-Id", "req_7Hq2LmX9vR4tKw8NcP3b"),
        ("ETag", "\"33a64df551425fcc55e4d42a148795d9f25f89d4\""),
        ("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
        ("X-Content-Sha256", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
        ("X-Event", "PaymentIntentSucceededEvent"),
        ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT"),
        ("X-Build", "x86_64-unknown-linux-gnu-release-2024"),
        ("X-Ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAV"),
        ("Content-Type", "application/vnd.github.machine-man-preview+json"),
    ]

    @Test("Technical values that are not secrets stay visible in headers, queries, paths and JSON")
    func controlsStayVisible() {
        for (name, value) in Self.controls {
            #expect(redaction.headerValue(name: name, value: value) == value, "\(name)")
            let text = "\(name) was \(value) today"
            #expect(redaction.text(text) == text)
        }
        let url = "https://h.example/users/550e8400-e29b-41d4-a716-446655440000/blobs/sha256:9f86d081884c7d659a2f"
        #expect(redaction.urlString(url) == url)
        let image =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
        let json = #"{"avatar":"\#(image)","event":"PaymentIntentSucceededEvent","id":"cus_NffrFeUfNV2Hib"}"#
        #expect(redaction.body(Data(json.utf8), contentType: "application/json", limit: 4096) == json)
    }

    @Test("A shaped credential where a URL's host would be is redacted (found by the fuzzer)")
    func shapedCredentialAsHost() {
        let token = "xoxb-2849173650-4817263509-Zq8XmR2vLp7KwN4tYc9BjH3s"
        let shown = redaction.text("n=Bps://\(token)//api.example.com/v1/books?page=2")
        #expect(!shown.contains("KwN4tYc9BjH3s"), "\(shown)")
        #expect(redaction.urlString("https://api.example.com/v1") == "https://api.example.com/v1")
    }

    @Test("A shaped credential inside a query, fragment or form item's name is redacted (found by the fuzzer)")
    func shapedCredentialInAName() {
        let token = "npm_Zq8XmR2vLp7KwN4tYc9BjH3sT5gF1dA6xQ9w"
        let url = redaction.urlString("https://h.example/cb#a=1&x/\(token)/token_type=bearer")
        #expect(!url.contains("sT5gF1dA6xQ9w"), "\(url)")
        let form = redaction.body(
            Data("\(token)=1&b=2".utf8), contentType: "application/x-www-form-urlencoded", limit: 4096)
        #expect(form == "<redacted>=1&b=2", "\(form)")
    }

    @Test("Text between -----BEGIN and PRIVATE KEY that is not a label keeps the other rules (found by the fuzzer)")
    func privateKeyLabelIsALabel() {
        let shown = redaction.text("x -----BEGIN Bearer ZQ7XK2W9VPL4MJ8R RSA PRIVATE KEY-----\nMIIE2LmX9vR4tKw8NcP3b\n")
        #expect(!shown.contains("ZQ7XK2W9VPL4MJ8R"), "\(shown)")
    }
}

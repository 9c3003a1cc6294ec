import Foundation
import HTTPPipelineLogging
import HTTPPipelineRedaction
import Testing

/// Your own shapes: tokens a rule matches are hidden on every surface, whatever their name.
@Suite("Redaction by rules of your own")
struct RedactionRuleTests {
    let redaction = Redaction.default.redactingTokens([
        .prefix("acme_live_", minimumLength: 20),
        .matching(minimumLength: 14) { $0.hasPrefix("ACME-") && $0.count == 19 },
    ])

    @Test("A prefix rule hides the token in headers, URLs, JSON, forms and text")
    func prefixRuleEverywhere() {
        let token = "acme_live_4eC39HqLyjWD"
        #expect(redaction.headerValue(name: "X-Note", value: "use \(token) now") == "use <redacted> now")
        #expect(redaction.urlString("https://h.example/p?x=\(token)&y=1") == "https://h.example/p?x=<redacted>&y=1")
        #expect(redaction.urlString("https://h.example/k/\(token)/v") == "https://h.example/k/<redacted>/v")
        let json = redaction.body(Data(#"{"n":"\#(token)"}"#.utf8), contentType: "application/json", limit: 100)
        #expect(!json.contains("4eC39HqLyjWD"), "\(json)")
        #expect(redaction.text("key \(token).") == "key <redacted>.")
        // A token with the prefix but nothing random about it: only the rule hides it.
        #expect(Redaction.default.text("key acme_live_orders_export.") == "key acme_live_orders_export.")
        #expect(redaction.text("key acme_live_orders_export.") == "key <redacted>.")
    }

    @Test("A test rule hides the tokens it matches and only those")
    func testRule() {
        #expect(redaction.text("card ACME-1234-5678-9012 ok") == "card <redacted> ok")
        #expect(redaction.text("card ACME-1234 ok") == "card ACME-1234 ok")
        #expect(redaction.text("acme_live_short") == "acme_live_short", "shorter than the rule's minimum")
    }
}

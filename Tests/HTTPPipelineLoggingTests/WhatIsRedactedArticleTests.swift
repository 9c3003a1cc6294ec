import Foundation
import HTTPPipelineLogging
import HTTPPipelineRedaction
import HTTPPipelineTesting
import Testing

/// The code sample of the "What is redacted, and how to add a rule" article
/// (HTTPPipelineLogging.docc/WhatIsRedacted.md), kept compiling and true here.
@Suite struct WhatIsRedactedArticleTests {
    let redaction = Redaction.default
        .redactingHeaders(["X-Tenant-Number"])
        .redactingBodyFields(["ssn"])
        .redactingTokens([
            .prefix("acme_live_", minimumLength: 30),
            .matching(minimumLength: 19) { $0.hasPrefix("ACME-") && $0.count == 19 },
        ])
        .allowingQueryItems(["session_hint"])

    @Test("The article's rules hide what it says and show what it allows")
    func articleSample() {
        _ = LoggingMiddleware(level: .body, sink: InMemoryLogSink(), redaction: redaction)
        #expect(redaction.text("key acme_live_4eC39HqLyjWDarjtT1zdp7dc") == "key <redacted>")
        #expect(redaction.text("card ACME-1234-5678-9012 ok") == "card <redacted> ok")
        #expect(redaction.headerValue(name: "X-Tenant-Number", value: "42") == Redaction.mark)
        #expect(
            redaction.body(Data(#"{"ssn":"123-45-6789","n":1}"#.utf8), contentType: "application/json", limit: 100)
                == #"{"ssn":"<redacted>","n":1}"#)
        #expect(
            redaction.urlString("https://h.example/?session_hint=abc&session=def")
                == "https://h.example/?session_hint=abc&session=<redacted>")
    }
}

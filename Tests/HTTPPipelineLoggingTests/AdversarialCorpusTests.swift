import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineTesting
import RedactionCorpus
import Testing

/// The adversarial corpus through the whole middleware at body level, with the default limits:
/// leak and over-redaction rates per category.
@Suite struct AdversarialCorpusTests {
    static let perCategory = 110

    static func corpus() -> [CorpusCase] {
        CorpusCase.corpus(perCategory: perCategory)
    }

    /// Everything a case holds, unredacted: what a logger without redaction could show.
    static func material(of item: CorpusCase) -> String {
        var parts = [item.request.url.absoluteString]
        parts += item.request.fields.map { "\($0.name): \($0.value)" }
        parts.append(String(decoding: item.request.body?.bufferedData ?? Data(), as: UTF8.self))
        parts += item.responseHeaders.map { "\($0.key): \($0.value)" }
        parts.append(String(decoding: item.responseBody, as: UTF8.self))
        parts.append(item.error.map { String(describing: $0) } ?? "")
        return parts.joined(separator: "\n")
    }

    /// Whether a secret, or for a long one its first or last 12 characters, shows in `log`.
    static func leaks(_ secret: String, in log: String) -> Bool {
        CorpusCase.leaks(secret, in: log)
    }

    /// Logs one case and returns the sink's text.
    static func log(_ item: CorpusCase) async -> String {
        let sink = InMemoryLogSink()
        let pipeline = Pipeline(transport: ScriptedTransport([item.reply])) {
            LoggingMiddleware(level: .body, sink: sink)
        }
        _ = try? await pipeline.send(item.request)
        return sink.text
    }

    @Test(
        "The corpus has over 1,000 cases in 10 categories, each with secrets that would show unredacted, and controls")
    func corpusIsNotVacuous() {
        let cases = Self.corpus()
        #expect(cases.count >= 1_000)
        #expect(Set(cases.map(\.category)).count == 10)
        for item in cases {
            #expect(!item.secrets.isEmpty && !item.controls.isEmpty, "\(item.category)")
            let material = Self.material(of: item)
            let decoded = material.removingPercentEncoding ?? material
            for secret in item.secrets {
                #expect(
                    material.contains(secret) || decoded.contains(secret),
                    "\(item.category): \(secret) is not in the exchange")
            }
            for control in item.controls {
                #expect(
                    material.lowercased().contains(control.lowercased()), "\(item.category): \(control) is not in it")
            }
        }
    }

    @Test("No secret of the adversarial corpus is logged, and at most 1 % of its controls are hidden")
    func corpusLeaksNothingAndKeepsControls() async {
        struct Tally {
            var cases = 0
            var secrets = 0
            var leaked = 0
            var controls = 0
            var hidden = 0
        }
        var tallies: [CorpusCase.Category: Tally] = [:]
        var leaks: [String] = []
        var hiddenControls: [String] = []
        for item in Self.corpus() {
            let log = await Self.log(item)
            var tally = tallies[item.category, default: Tally()]
            tally.cases += 1
            for secret in item.secrets {
                tally.secrets += 1
                if Self.leaks(secret, in: log) {
                    tally.leaked += 1
                    leaks.append("\(item.category.rawValue): \(secret)\n\(log)")
                }
            }
            // Header names may come back in another case (Foundation spells `ETag` as `Etag`).
            let lowercasedLog = log.lowercased()
            for control in item.controls {
                tally.controls += 1
                if !lowercasedLog.contains(control.lowercased()) {
                    tally.hidden += 1
                    hiddenControls.append("\(item.category.rawValue): \(control)\n\(log)")
                }
            }
            tallies[item.category] = tally
        }
        func percent(_ part: Int, _ whole: Int) -> String {
            let value = whole == 0 ? 0 : Double(part) * 100 / Double(whole)
            let hundredths = Int((value * 100).rounded())
            return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) %"
        }
        func column(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        var table = ["category   | cases | secrets | leaked | leak rate | controls | hidden | over-redaction"]
        var total = Tally()
        for category in CorpusCase.Category.allCases {
            let tally = tallies[category, default: Tally()]
            total.cases += tally.cases
            total.secrets += tally.secrets
            total.leaked += tally.leaked
            total.controls += tally.controls
            total.hidden += tally.hidden
            table.append(row(category.rawValue, tally))
            #expect(
                tally.hidden * 100 <= tally.controls,
                "\(category.rawValue): \(tally.hidden) of \(tally.controls) hidden")
        }
        table.append(row("all", total))
        func row(_ name: String, _ tally: Tally) -> String {
            name.padding(toLength: 10, withPad: " ", startingAt: 0) + " | " + column("\(tally.cases)", 5) + " | "
                + column("\(tally.secrets)", 7) + " | " + column("\(tally.leaked)", 6) + " | "
                + column(percent(tally.leaked, tally.secrets), 9) + " | " + column("\(tally.controls)", 8) + " | "
                + column("\(tally.hidden)", 6) + " | " + column(percent(tally.hidden, tally.controls), 14)
        }
        print(
            "Adversarial corpus (seed 0x175EC2E7), logged at body level with the default limits:\n"
                + table.joined(separator: "\n"))
        #expect(leaks.isEmpty, "\(leaks.count) leaks, first: \(leaks.prefix(3).joined(separator: "\n---\n"))")
        #expect(
            total.hidden * 100 <= total.controls, "hidden: \(hiddenControls.prefix(3).joined(separator: "\n---\n"))")
        if ProcessInfo.processInfo.environment["CORPUS_DUMP"] != nil {
            for line in hiddenControls { print("HIDDEN " + line.replacingOccurrences(of: "\n", with: " ⏎ ")) }
        }
    }
}

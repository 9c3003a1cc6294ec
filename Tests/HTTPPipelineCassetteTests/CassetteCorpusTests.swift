import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineTesting
import RedactionCorpus
import Testing

/// The logs' adversarial corpus (1,100 exchanges hiding secrets in headers, query, path, user
/// info, JSON, forms, multipart, text, errors and responses) recorded into cassettes: the file
/// must hold none of them.
@Suite struct CassetteCorpusTests {
    /// Every string a HAR file holds, decoded from its JSON (so `\/` and `\u…` escapes cannot hide
    /// a secret from the check), then its raw text too.
    static func strings(of data: Data) throws -> String {
        func walk(_ value: Any, into parts: inout [String]) {
            switch value {
            case let text as String: parts.append(text)
            case let array as [Any]: for element in array { walk(element, into: &parts) }
            case let object as [String: Any]:
                for (key, element) in object {
                    parts.append(key)
                    walk(element, into: &parts)
                }
            default: parts.append("\(value)")
            }
        }
        var parts: [String] = []
        walk(try JSONSerialization.jsonObject(with: data), into: &parts)
        parts.append(String(decoding: data, as: UTF8.self))
        let joined = parts.joined(separator: "\n")
        // A base64 body is checked decoded as well.
        let decoded = parts.compactMap { Data(base64Encoded: $0).map { String(decoding: $0, as: UTF8.self) } }
        return ([joined] + decoded).joined(separator: "\n")
    }

    @Test("No secret of the logs' adversarial corpus reaches a cassette file, error cases included")
    func corpusLeaksNothingIntoCassettes() async throws {
        var leaks: [String] = []
        var recorded = 0
        let cases = CorpusCase.corpus()
        for item in cases {
            let cassette = Cassette()
            let recorder = RecordingTransport(over: ScriptedTransport([item.reply]), into: cassette)
            _ = try? await recorder.send(item.request)
            recorded += cassette.entries.count
            let text = try Self.strings(of: try cassette.harData())
            for secret in item.secrets where CorpusCase.leaks(secret, in: text) {
                leaks.append("\(item.category.rawValue): \(secret)")
            }
        }
        print("Adversarial corpus recorded into \(cases.count) cassettes, \(recorded) entries, \(leaks.count) leaks")
        // Every exchange was recorded (an error case as an entry of its own), so the check is not vacuous.
        #expect(recorded == cases.count)
        #expect(leaks.isEmpty, "\(leaks.count) leaks, first: \(leaks.prefix(5).joined(separator: "\n"))")
    }
}

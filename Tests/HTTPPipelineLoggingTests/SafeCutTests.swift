import Testing

@testable import HTTPPipelineLogging
@testable import HTTPPipelineRedaction

/// Where a long URL may be cut before it is scanned. Foundation's `URL` refuses the authorities
/// below, but the redaction also sees URLs as text (in error descriptions and bodies), so the cut
/// is checked on bytes.
@Suite struct SafeCutTests {
    static let secret = "Qz8w3N5v7x9K"

    @Test(
        "A URL is cut for scanning only where its user info is already settled",
        arguments: [
            "https://alice:Qz8w/3N5v7x9K@h.example/a/b/c/d/e/f/g/h/i/j/k?x=1&y=2&z=3&w=4",
            "https://h.example:Qz8w3N5v7x9K/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t",
            "https://alice:Qz8w3N5v7x9K@h.example/a/b/c/d/e/f/g/h/i/j/k?x=1&sig=Qz8w3N5v7x9K&z=3",
        ]
    )
    func urlScanCutKeepsUserInfoSettled(address: String) {
        let bytes = Array(address.utf8)
        let pieces = (0...(Self.secret.count - 4)).map { Self.secret.dropFirst($0).prefix(4) }
        for cap in 0...bytes.count {
            guard let kept = SafeCut.urlScanPrefix(bytes[...], cap: cap) else { continue }
            #expect(kept.count <= cap || kept.count == bytes.count)
            let shown = String(decoding: Redaction.default.redactURL(kept, depth: 0), as: UTF8.self)
            #expect(!shown.contains("alice") && !pieces.contains { shown.contains($0) }, "cap \(cap): \(shown)")
        }
    }

    @Test("A URL whose user info could reach past its path is not cut inside the path")
    func unsettledAuthorityIsNotCutInThePath() {
        let bytes = Array("https://alice:Qz8w/3N5v7x9K@h.example/a/b/c/d/e/f".utf8)
        #expect(SafeCut.urlScanPrefix(bytes[...], cap: 30) == nil)
        let settled = Array("https://alice@h.example/a/b/c/d/e/f".utf8)
        #expect(
            SafeCut.urlScanPrefix(settled[...], cap: 30).map { String(decoding: $0, as: UTF8.self) }
                == "https://alice@h.example/a/b/c")
    }
}

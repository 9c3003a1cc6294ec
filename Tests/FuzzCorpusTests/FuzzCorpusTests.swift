import Foundation
import FuzzChecks
import Testing

/// Every committed fuzz input, replayed through the fuzzers' own checks: the seed corpora in
/// `Fuzz/Corpus/<fuzzer>/` and the reproducers in `Fuzz/Regressions/<fuzzer>/`. A crash or a
/// broken invariant found by `Scripts/fuzz.sh` becomes a test by dropping its file in the
/// regressions folder.
@Suite struct FuzzCorpusTests {
    /// `Fuzz/` in the checkout these tests were built from.
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ folder: String, of target: FuzzTarget) -> [String] {
        let path = fuzzFolder.appendingPathComponent(folder).appendingPathComponent(target.name).path
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return FuzzTarget.files(at: path)
    }

    @Test("Every seed in a fuzzer's committed corpus keeps that fuzzer's invariants", arguments: FuzzTarget.allCases)
    func seedsKeepTheInvariants(_ target: FuzzTarget) throws {
        let seeds = Self.inputs("Corpus", of: target)
        #expect(seeds.count >= 5, "the \(target.name) corpus is missing or nearly empty")
        for path in seeds {
            let bytes = try #require(FuzzTarget.read(path), "cannot read \(path)")
            #expect(target.violations(bytes) == [], "\(path)")
        }
    }

    @Test("Every reproducer kept in Fuzz/Regressions keeps its fuzzer's invariants", arguments: FuzzTarget.allCases)
    func regressionsKeepTheInvariants(_ target: FuzzTarget) throws {
        for path in Self.inputs("Regressions", of: target) {
            let bytes = try #require(FuzzTarget.read(path), "cannot read \(path)")
            #expect(target.violations(bytes) == [], "\(path)")
        }
    }

}

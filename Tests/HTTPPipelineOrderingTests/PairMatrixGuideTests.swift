import Foundation
import Testing

/// Keeps `Documentation/Ordering.md` and the pair-matrix tests in step.
@Suite("Pair matrix: the ordering guide")
struct PairMatrixGuideTests {
    /// The test directory and the repository root, found from this file's path.
    static let testDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = testDirectory.deletingLastPathComponent().deletingLastPathComponent()

    /// Every `name()` in `File.swift` reference in the guide's pair table.
    static func tableReferences() throws -> [(function: String, file: String)] {
        let guide = try String(contentsOf: root.appending(path: "Documentation/Ordering.md"), encoding: .utf8)
        let pattern = try Regex<(Substring, Substring, Substring)>(#"`(\w+)\(\)` in `(PairMatrix\w+\.swift)`"#)
        return guide.split(separator: "\n")
            .filter { $0.hasPrefix("| ") }
            .flatMap { $0.matches(of: pattern) }
            .map { (String($0.output.1), String($0.output.2)) }
    }

    /// The `@Test` functions declared in one pair-matrix file.
    static func testFunctions(in file: String) throws -> Set<String> {
        let source = try String(contentsOf: testDirectory.appending(path: file), encoding: .utf8)
        // The attribute may span lines (a long display name is wrapped by the formatter).
        let pattern = try Regex<(Substring, Substring)>(#"@Test\((?s:.*?)\)\s*\n\s*func (\w+)\("#)
        return Set(source.matches(of: pattern).map { String($0.output.1) })
    }

    static let matrixFiles = [
        "PairMatrixHeadersTests.swift", "PairMatrixLoggingTests.swift", "PairMatrixAuthRetryGzipTests.swift",
        "PairMatrixRedirectTests.swift", "PairMatrixTimeoutTests.swift", "PairMatrixHedgingTests.swift",
        "PairMatrixConcurrencyLimitTests.swift", "PairMatrixCircuitBreakerTests.swift",
    ]

    @Test("Every test the guide's pair table names exists in the file it names")
    func everyTestNamedInTheGuideExists() throws {
        let references = try Self.tableReferences()
        #expect(references.count >= 10, "the table names at least one test per pair")
        for reference in references {
            let declared = try Self.testFunctions(in: reference.file)
            #expect(
                declared.contains(reference.function),
                "Ordering.md names \(reference.function)() in \(reference.file), which does not declare it")
        }
    }

    @Test("Every pair-matrix test is named in the guide's pair table")
    func everyPairMatrixTestIsNamedInTheGuide() throws {
        let named = Set(try Self.tableReferences().map { "\($0.file):\($0.function)" })
        for file in Self.matrixFiles {
            let declared = try Self.testFunctions(in: file)
            #expect(!declared.isEmpty, "\(file) declares tests")
            for function in declared {
                #expect(named.contains("\(file):\(function)"), "\(function)() in \(file) is missing from Ordering.md")
            }
        }
    }

    @Test("The guide's pair table covers all ten pairs")
    func theGuideCoversAllTenPairs() throws {
        let guide = try String(contentsOf: Self.root.appending(path: "Documentation/Ordering.md"), encoding: .utf8)
        let rows = guide.split(separator: "\n").filter { $0.hasPrefix("| ") }
        for pair in ["H–L", "H–A", "H–R", "H–G", "L–A", "L–R", "L–G", "A–R", "A–G", "R–G"]
            + ["D–H", "D–L", "D–A", "D–R", "D–G"] + ["T–R", "T–A", "T–D", "T–L"] + [
                "Hg–R", "Hg–A", "Hg–T", "Hg–P", "Hg–L",
            ] + ["C–R", "C–A", "C–T"] + ["B–R", "B–A", "B–T"]
        {
            #expect(rows.contains { $0.hasPrefix("| \(pair)") }, "Ordering.md has a row for \(pair)")
        }
    }
}

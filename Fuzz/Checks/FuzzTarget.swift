import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
import HTTPPipelineRedaction
#endif

/// One fuzzed surface and the invariants every input must keep on it.
///
/// The libFuzzer harnesses (`Fuzz/Fuzz*`) and the corpus tests (`Tests/FuzzCorpusTests`) call the
/// same ``violations(_:)``, so an input that breaks an invariant under the fuzzer fails the same
/// way as a test once it is committed to `Fuzz/Corpus/<name>/` or `Fuzz/Regressions/<name>/`.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// The gzip and deflate decoder: bytes read as gzip, as deflate (zlib-wrapped or raw).
    case gzip
    /// The `Retry-After` parser: a header value, and after the first line feed a `Date` value.
    case retryAfter = "retry-after"
    /// Redaction of URLs, headers and bodies, with secrets planted where they must never show.
    case redaction

    /// The name of the target's corpus and regression folders.
    package var name: String { rawValue }

    /// What `input` breaks: one line per broken invariant, none when it keeps them all.
    package func violations(_ input: UnsafeRawBufferPointer) -> [String] {
        switch self {
        case .gzip: GzipChecks.violations(input)
        case .retryAfter: RetryAfterChecks.violations(input)
        case .redaction: RedactionChecks.violations(input)
        }
    }

    /// What `input` breaks.
    package func violations(_ input: [UInt8]) -> [String] {
        input.withUnsafeBytes { violations($0) }
    }

    /// The body of `LLVMFuzzerTestOneInput`: checks one input and aborts, after printing what
    /// broke, when it breaks an invariant (libFuzzer then keeps the input as a crash reproducer).
    ///
    /// - Returns: 0, as libFuzzer expects.
    package func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        let input = UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count > 0 ? count : 0)
        let broken = violations(input)
        guard broken.isEmpty else {
            for line in broken { Self.printError("invariant broken (\(name)): \(line)") }
            abort()
        }
        return 0
    }

    /// The `main` of a fuzz executable built without libFuzzer: checks every file named on the
    /// command line (a directory stands for the files in it) and exits with 1 when any breaks an
    /// invariant, so a reproducer can be replayed with a plain `swift run`.
    package func replay(_ paths: [String]) -> Never {
        var failed = 0
        var checked = 0
        for path in paths {
            for file in Self.files(at: path) {
                guard let bytes = Self.read(file) else {
                    Self.printError("cannot read \(file)")
                    exit(2)
                }
                checked += 1
                let broken = violations(bytes)
                if !broken.isEmpty { failed += 1 }
                for line in broken { print("\(file): \(line)") }
            }
        }
        print("\(name): \(checked) inputs checked, \(failed) broke an invariant")
        exit(failed == 0 ? 0 : 1)
    }

    /// Writes a line to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The files under `path` (itself when it is not a directory), sorted by name, hidden ones left out.
    package static func files(at path: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [path] }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
    }

    /// The whole content of a file.
    package static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}

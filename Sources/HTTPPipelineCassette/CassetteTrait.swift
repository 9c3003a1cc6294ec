public import Foundation
public import HTTPPipeline
public import HTTPPipelineRedaction
public import Testing

/// A Swift Testing trait that gives a test a cassette: recorded from real traffic, or replayed
/// from the file, as the environment says.
///
/// Mark a test with it, `@Test(.cassette("books"))`, and send through the transport it gives:
///
/// ```swift
/// import HTTPPipeline
/// import HTTPPipelineCassette
/// import Testing
///
/// // Marked @Test(.cassette("books")) in a test target.
/// func booksLoad() async throws {
///     let transport = try CassetteTrait.transport(over: URLSessionTransport())
///     let response = try await transport.send(HTTPRequest(url: URL(string: "https://api.example.com/books")!))
///     #expect(response.status == 200)
/// }
/// ```
///
/// The file is `Cassettes/<name>.har` in the folder of the test's source file. With
/// `HTTP_PIPELINE_CASSETTES=record` in the environment, the test's requests go through the real
/// transport and the exchanges are written (redacted) when the test ends, even when it fails;
/// otherwise (`replay`, the default) they are answered from the file, strictly, and a missing
/// file fails the test with ``CassetteError/file(path:reason:)``. `record-missing` replays what
/// the file has and records the rest. Nothing else in the test changes between the modes.
public struct CassetteTrait: TestTrait, TestScoping {
    /// What the trait does with the test's requests.
    public enum Mode: String, Sendable {
        /// Answer every request from the file; an unmatched one is a typed error.
        case replay
        /// Send every request through the real transport and write the file anew.
        case record
        /// Answer from the file what it has; send and record the rest, then write the file.
        case recordMissing = "record-missing"
    }

    /// The environment variable that chooses the mode: `record`, `replay` or `record-missing`.
    public static let environmentVariable = "HTTP_PIPELINE_CASSETTES"

    /// The cassette file.
    public let file: URL
    /// What the trait does with the test's requests.
    public let mode: Mode
    let redaction: Redaction
    let rules: MatchRules
    /// Why the cassette's name cannot be used (it would lead out of its folder), if it cannot.
    var nameProblem: String?

    /// The session of the test running now, bound by the trait around it.
    @TaskLocal static var session: Session?

    /// One test's cassette and mode.
    final class Session: Sendable {
        let cassette: Cassette
        let mode: Mode
        let rules: MatchRules

        init(cassette: Cassette, mode: Mode, rules: MatchRules) {
            self.cassette = cassette
            self.mode = mode
            self.rules = rules
        }
    }

    /// The transport a test under the trait sends through: `live` wrapped to record, or the
    /// cassette's replay, as the mode says.
    ///
    /// - Parameter live: The real transport, used when recording.
    /// - Returns: The transport for this test.
    /// - Throws: ``CassetteError/notInCassetteTest`` outside a test with the trait;
    ///   ``CassetteError/badBase64(entry:)`` for a broken entry.
    public static func transport(over live: some HTTPTransport) throws(CassetteError) -> CassetteTransport {
        guard let session else { throw .notInCassetteTest }
        switch session.mode {
        case .record: return CassetteTransport(base: RecordingTransport(over: live, into: session.cassette))
        case .replay: return CassetteTransport(base: try ReplayingTransport(session.cassette, rules: session.rules))
        case .recordMissing:
            return CassetteTransport(
                base: try ReplayingTransport(session.cassette, mode: .recordMissing(over: live), rules: session.rules))
        }
    }

    /// Binds the cassette around the test, and writes it afterwards when recording.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // Nothing is read or written under a name that leads out of the cassettes' folder.
        if let nameProblem { throw CassetteError.file(path: file.lastPathComponent, reason: nameProblem) }
        let cassette: Cassette
        switch mode {
        case .record:
            cassette = Cassette(redaction: redaction)
        case .replay:
            cassette = try Cassette(contentsOf: file, redaction: redaction)
        case .recordMissing:
            cassette =
                FileManager.default.fileExists(atPath: file.path)
                ? try Cassette(contentsOf: file, redaction: redaction) : Cassette(redaction: redaction)
        }
        let session = Session(cassette: cassette, mode: mode, rules: rules)
        // Written whatever the test did: a failing test's traffic is what one wants to look at.
        defer {
            if mode != .replay { try? cassette.write(to: file) }
        }
        try await Self.$session.withValue(session) { try await function() }
    }

    /// The mode the environment asks for; `replay` when it says nothing (or something unknown).
    /// Why `name` cannot name a cassette in its folder: empty, absolute, holding a NUL, or with a
    /// `..` component that would lead out of it; `nil` when it can (subfolders are fine).
    static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a cassette's name is empty" }
        if name.hasPrefix("/") || name.hasPrefix("~") { return "a cassette's name must be relative to its folder" }
        if name.contains("\u{0}") { return "a cassette's name holds a NUL" }
        if name.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return "a cassette's name must not lead out of its folder with \"..\""
        }
        return nil
    }

    package static func environmentMode(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Mode {
        environment[environmentVariable].flatMap(Mode.init(rawValue:)) ?? .replay
    }
}

/// The transport ``CassetteTrait/transport(over:)`` hands a test: recording over the real one, or
/// replaying the cassette, as the trait's mode says. A concrete type, so a pipeline can be built
/// over it.
public struct CassetteTransport: HTTPTransport {
    let base: any HTTPTransport

    /// Sends the request through the recording or the replay.
    ///
    /// - Parameter request: The request.
    /// - Returns: The live response (recording) or the recorded one (replaying).
    /// - Throws: What the recording or replaying transport throws.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await base.send(request)
    }
}

extension Trait where Self == CassetteTrait {
    /// A cassette named `name`, in the `Cassettes` folder beside the test's source file.
    ///
    /// The name may hold subfolders (`"catalog/first-page"`). One that is empty, absolute, or
    /// leads out of the folder with a `..` component fails the test with a `CassetteError`
    /// (`isFileError`) before anything is read or written.
    ///
    /// - Parameters:
    ///   - name: The file's name without `.har`, relative to the `Cassettes` folder.
    ///   - mode: What to do with the requests; by default what `HTTP_PIPELINE_CASSETTES` says
    ///     (`replay` when unset).
    ///   - redaction: The redaction applied before anything is written.
    ///   - rules: How requests are matched on replay.
    ///   - filePath: The test's source file; filled in by the compiler.
    /// - Returns: The trait.
    public static func cassette(
        _ name: String,
        mode: CassetteTrait.Mode? = nil,
        redaction: Redaction = .default,
        rules: MatchRules = .default,
        filePath: String = #filePath
    ) -> Self {
        let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Cassettes")
        var trait = CassetteTrait(
            file: folder.appendingPathComponent(name + ".har"),
            mode: mode ?? CassetteTrait.environmentMode(),
            redaction: redaction,
            rules: rules
        )
        trait.nameProblem = CassetteTrait.problem(withName: name)
        return trait
    }
}

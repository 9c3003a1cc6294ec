import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineLogging

/// The interop scenarios recorded against httpbin and replayed offline.
///
/// `INTEROP_CASSETTES=record` records each scenario's traffic into
/// `INTEROP_CASSETTE_DIR/<scenario>.har` (redacted, as any cassette) while it runs against
/// httpbin; `INTEROP_CASSETTES=replay` runs the same scenarios, with the same checks, from those
/// files, and fails any request no entry answers. `.ci/run` records during its interop run, stops
/// httpbin, then replays. Unset, the scenarios run live and nothing is recorded.
enum InteropCassettes {
    enum Mode: String {
        case record, replay
    }

    /// The mode `INTEROP_CASSETTES` sets, if any.
    static let mode: Mode? = ProcessInfo.processInfo.environment["INTEROP_CASSETTES"].flatMap(Mode.init(rawValue:))

    /// Whether the scenarios run from cassettes, with no server.
    static var isReplaying: Bool { mode == .replay }

    /// How a replay matches: method, path and query, and the credential and cookie sent (their
    /// scheme and name; values are compared redacted, each live secret keeping the placeholder it
    /// was first served under), so a stale token's 401s and a fresh one's 200s are told apart
    /// however concurrent callers interleave them. Not the origin: a
    /// loopback server's port changes from run to run.
    static let rules = MatchRules.default.matchingHeaders(["Authorization", "Cookie"]).ignoringOrigin()

    /// httpbin's `/bytes` answers with random bytes that hold no secret: kept, so a replay serves
    /// the same bytes.
    static let keptTypes = ["application/octet-stream"]

    /// One scenario's cassette, and the replay every transport of the scenario shares (so that
    /// repeated requests are served in recorded order across them).
    final class Session: Sendable {
        let cassette: Cassette
        let replay: ReplayingTransport?

        init(cassette: Cassette, replay: ReplayingTransport?) {
            self.cassette = cassette
            self.replay = replay
        }
    }

    /// The running scenario's session.
    @TaskLocal static var session: Session?

    /// The folder `INTEROP_CASSETTE_DIR` names.
    static func directory() throws -> URL {
        guard let path = ProcessInfo.processInfo.environment["INTEROP_CASSETTE_DIR"], !path.isEmpty else {
            throw InteropFailure("INTEROP_CASSETTES is set but INTEROP_CASSETTE_DIR is not")
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Runs `body` as the scenario `name`: recording it (when `records`, and the mode says so)
    /// into its file, written even when the scenario fails, or replaying it from its file.
    static func run(_ name: String, records: Bool = true, _ body: () async throws -> Void) async throws {
        switch mode {
        case nil: try await body()
        case .record?:
            guard records else { return try await body() }
            let folder = try directory()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let session = Session(cassette: Cassette(keepingBytesOf: keptTypes), replay: nil)
            defer { try? session.cassette.write(to: folder.appending(path: "\(name).har")) }
            try await $session.withValue(session) { try await body() }
        case .replay?:
            let cassette = try Cassette(contentsOf: try directory().appending(path: "\(name).har"))
            let session = Session(cassette: cassette, replay: try ReplayingTransport(cassette, rules: rules))
            try await $session.withValue(session) { try await body() }
        }
    }

    /// The transport a scenario sends through: `base` when no cassette is in play, `base`
    /// recorded, or the scenario's replay (which never touches `base`).
    static func transport(over base: some HTTPTransport) -> any HTTPTransport {
        guard let session else { return base }
        if let replay = session.replay { return replay }
        return RecordingTransport(over: base, into: session.cassette)
    }

    /// What a scenario expects to see of a secret the server echoes: the secret itself when the
    /// server answered, a cassette's placeholder when a replay did (a cassette never holds it).
    static func echoes(_ echoed: String?, _ secret: String) -> Bool {
        guard isReplaying else { return echoed == secret }
        return echoed?.contains("<redacted-") == true && echoed?.contains(secret) == false
    }
}

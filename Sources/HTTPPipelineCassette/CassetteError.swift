/// Why a cassette could not be read, written, recorded into or answered from.
///
/// Every case says where: the entry's index in the file (counting from 0), the file's path, or
/// the recorded entry closest to a request that none matched, and what differed. None carries a
/// secret: requests are described as they would be written, redacted.
public struct CassetteError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case file, malformed, badBase64, bodyTooLarge, noMatch, exhausted, notInCassetteTest, recordedFailure
        case unanswered
    }

    private let code: Code
    /// The index of the entry the error is about, where there is one.
    public let entry: Int?
    /// The unmatched or exhausted request's method and URL, as redacted.
    public let request: String?
    /// The recorded entry most like an unmatched request; `nil` when the cassette is empty or
    /// the error is of another kind.
    public let closest: Closest?
    /// The file's path, for a file that could not be read or written.
    public let path: String?
    /// What went wrong, in words, where the kind carries them: the file's or format's problem,
    /// or a recorded failure's message as redacted.
    public let reason: String?
    /// A recorded failure's kind (its type's name, or `abandoned`).
    public let kind: String?
    /// The replay's limit for a request body, or how many matching entries were served.
    public let count: Int?

    private init(
        _ code: Code, entry: Int? = nil, request: String? = nil, closest: Closest? = nil, path: String? = nil,
        reason: String? = nil, kind: String? = nil, count: Int? = nil
    ) {
        self.code = code
        self.entry = entry
        self.request = request
        self.closest = closest
        self.path = path
        self.reason = reason
        self.kind = kind
        self.count = count
    }

    /// The file could not be read or written.
    public static func file(path: String, reason: String) -> CassetteError {
        CassetteError(.file, path: path, reason: reason)
    }

    /// The file is not a HAR archive: not JSON, cut short, or missing a required field. `entry` is
    /// the index of the entry where it went wrong, `nil` when outside any entry.
    public static func malformed(entry: Int?, reason: String) -> CassetteError {
        CassetteError(.malformed, entry: entry, reason: reason)
    }

    /// An entry's body says it is base64 but is not.
    public static func badBase64(entry: Int) -> CassetteError { CassetteError(.badBase64, entry: entry) }

    /// A request body a replay reads for its body matcher was longer than the replay's limit.
    public static func bodyTooLarge(limit: Int) -> CassetteError { CassetteError(.bodyTooLarge, count: limit) }

    /// No recorded entry matches the request (in ``ReplayingTransport/Mode/strict`` mode).
    /// `closest` is the entry most like it and what differed, `nil` when the cassette is empty.
    public static func noMatch(request: String, closest: Closest?) -> CassetteError {
        CassetteError(.noMatch, request: request, closest: closest)
    }

    /// Every recorded entry matching the request was already served, in recorded order.
    public static func exhausted(request: String, served: Int) -> CassetteError {
        CassetteError(.exhausted, request: request, count: served)
    }

    /// ``CassetteTrait/transport(over:)`` was called outside a test that has the trait.
    public static let notInCassetteTest = CassetteError(.notInCassetteTest)

    /// The recorded exchange failed with an error a replay cannot rebuild as its own type: its
    /// kind (the type's name, or `abandoned` for a body the recording's reader dropped unread) and
    /// its words as recorded, redacted. A `URLError` is rebuilt as itself.
    public static func recordedFailure(entry: Int, kind: String, message: String) -> CassetteError {
        CassetteError(.recordedFailure, entry: entry, reason: message, kind: kind)
    }

    /// The recorded request was never answered (its caller gave up first), and the replay's
    /// caller did not give up either within the recorded time and ten seconds more.
    public static func unanswered(entry: Int) -> CassetteError { CassetteError(.unanswered, entry: entry) }

    /// Whether no recorded entry matched the request.
    public var isNoMatch: Bool { code == .noMatch }
    /// Whether the file could not be read or written.
    public var isFileError: Bool { code == .file }
    /// Whether the file is not a HAR archive.
    public var isMalformed: Bool { code == .malformed }
    /// Whether the recorded exchange failed with an error a replay cannot rebuild.
    public var isRecordedFailure: Bool { code == .recordedFailure }

    /// The recorded entry most like an unmatched request.
    public struct Closest: Sendable, Equatable, CustomStringConvertible {
        /// Its index in the cassette.
        public var entry: Int
        /// Its method and URL, as recorded.
        public var request: String
        /// What differed, most important first.
        public var differences: [Difference]

        public var description: String {
            "entry \(entry) (\(request)) differs in "
                + differences.map(\.description).joined(separator: "; ")
        }
    }

    /// One way a request differs from a recorded one.
    public enum Difference: Sendable, Equatable, CustomStringConvertible {
        /// The method.
        case method(recorded: String, live: String)
        /// The scheme, host and port.
        case origin(recorded: String, live: String)
        /// The path.
        case path(recorded: String, live: String)
        /// A query item (`nil` where one side lacks it); values as redacted.
        case queryItem(name: String, recorded: String?, live: String?)
        /// A matched header (`nil` where one side lacks it); values as redacted.
        case header(name: String, recorded: String?, live: String?)
        /// The body, judged by the body matcher.
        case body

        public var description: String {
            switch self {
            case .method(let recorded, let live): "method: recorded \(recorded), live \(live)"
            case .origin(let recorded, let live): "origin: recorded \(recorded), live \(live)"
            case .path(let recorded, let live): "path: recorded \(recorded), live \(live)"
            case .queryItem(let name, let recorded, let live):
                "query item \(name): recorded \(recorded ?? "(none)"), live \(live ?? "(none)")"
            case .header(let name, let recorded, let live):
                "header \(name): recorded \(recorded ?? "(none)"), live \(live ?? "(none)")"
            case .body: "body: the body matcher said no"
            }
        }
    }

    public var description: String {
        switch code {
        case .file: "cassette file \(path ?? ""): \(reason ?? "")"
        case .malformed:
            if let entry {
                "cassette entry \(entry) is malformed: \(reason ?? "")"
            } else {
                "the cassette is not a HAR 1.2 archive: \(reason ?? "")"
            }
        case .badBase64: "cassette entry \(entry ?? 0) has a body marked base64 that is not base64"
        case .bodyTooLarge: "a request body is longer than the replay's limit of \(count ?? 0) bytes"
        case .noMatch:
            if let closest {
                "no recorded entry matches \(request ?? ""); closest: \(closest)"
            } else {
                "no recorded entry matches \(request ?? ""): the cassette is empty"
            }
        case .exhausted:
            "all \(count ?? 0) recorded entries matching \(request ?? "") were already served"
        case .notInCassetteTest:
            "CassetteTrait.transport(over:) was called outside a test with the .cassette trait"
        case .recordedFailure:
            "cassette entry \(entry ?? 0) recorded a failure (\(kind ?? "")): \(reason ?? "")"
        case .unanswered:
            "cassette entry \(entry ?? 0) was never answered: its caller gave up first, and this one did not"
        }
    }
}

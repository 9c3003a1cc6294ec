/// Why a cassette could not be read, written, recorded into or answered from.
///
/// Every case says where: the entry's index in the file (counting from 0), the file's path, or
/// the recorded entry closest to a request that none matched, and what differed. None carries a
/// secret: requests are described as they would be written, redacted.
public enum CassetteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read or written.
    case file(path: String, reason: String)
    /// The file is not a HAR archive: not JSON, cut short, or missing a required field. `entry` is
    /// the index of the entry where it went wrong, `nil` when outside any entry.
    case malformed(entry: Int?, reason: String)
    /// An entry's body says it is base64 but is not.
    case badBase64(entry: Int)
    /// A request body a replay reads for its body matcher was longer than the replay's limit.
    case bodyTooLarge(limit: Int)
    /// No recorded entry matches the request (in ``ReplayingTransport/Mode/strict`` mode).
    /// `closest` is the entry most like it and what differed, `nil` when the cassette is empty.
    case noMatch(request: String, closest: Closest?)
    /// Every recorded entry matching the request was already served, in recorded order.
    case exhausted(request: String, served: Int)
    /// ``CassetteTrait/transport(over:)`` was called outside a test that has the trait.
    case notInCassetteTest
    /// The recorded exchange failed with an error a replay cannot rebuild as its own type: its
    /// kind (the type's name, or `abandoned` for a body the recording's reader dropped unread) and
    /// its words as recorded, redacted. A `URLError` is rebuilt as itself.
    case recordedFailure(entry: Int, kind: String, message: String)
    /// The recorded request was never answered (its caller gave up first), and the replay's
    /// caller did not give up either within the recorded time and ten seconds more.
    case unanswered(entry: Int)

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
        switch self {
        case .file(let path, let reason): "cassette file \(path): \(reason)"
        case .malformed(let entry?, let reason): "cassette entry \(entry) is malformed: \(reason)"
        case .malformed(nil, let reason): "the cassette is not a HAR 1.2 archive: \(reason)"
        case .badBase64(let entry): "cassette entry \(entry) has a body marked base64 that is not base64"
        case .bodyTooLarge(let limit): "a request body is longer than the replay's limit of \(limit) bytes"
        case .noMatch(let request, let closest?): "no recorded entry matches \(request); closest: \(closest)"
        case .noMatch(let request, nil): "no recorded entry matches \(request): the cassette is empty"
        case .exhausted(let request, let served):
            "all \(served) recorded entries matching \(request) were already served"
        case .notInCassetteTest:
            "CassetteTrait.transport(over:) was called outside a test with the .cassette trait"
        case .recordedFailure(let entry, let kind, let message):
            "cassette entry \(entry) recorded a failure (\(kind)): \(message)"
        case .unanswered(let entry):
            "cassette entry \(entry) was never answered: its caller gave up first, and this one did not"
        }
    }
}

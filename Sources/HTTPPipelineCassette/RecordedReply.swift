import Foundation
import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a replay answers for an entry: a response with its body buffered, a response whose body
/// streams in the chunks it was recorded in (ending with the recorded error, if it failed), or
/// the recorded failure.
enum RecordedReply: Sendable {
    case response(HTTPResponse)
    case streamed(HTTPResponseHead, chunks: [Data], ending: RecordedFailure?)
    case failure(RecordedFailure)

    /// The reply for an entry, its body decoded.
    init(_ entry: HAR.Entry, index: Int, body: Data) {
        let recorded = entry.response
        let failure = recorded.errorKind.map { kind in
            RecordedFailure(
                entry: index, kind: kind, code: recorded.errorCode, message: recorded.error ?? "",
                waited: .milliseconds(max(0, entry.time)))
        }
        if recorded.status == 0, let failure {
            self = .failure(failure)
            return
        }
        var fields = HTTPFields(recorded.headers.map { HTTPField(name: $0.name, value: $0.value) })
        // HAR keeps the body decoded (a browser's export too), so the replay carries no coding; a
        // body not recorded keeps its coding (its summary is no coded bytes, but a decoder above
        // must not take it for bytes decoded below). Either way the length is what is served.
        if recorded.content.notRecorded != true { fields["Content-Encoding"] = nil }
        if fields["Content-Length"] != nil { fields["Content-Length"] = String(body.count) }
        let head = HTTPResponseHead(status: .init(code: recorded.status), fields: fields)
        guard recorded.content.chunks != nil || failure != nil else {
            self = .response(HTTPResponse(head: head, body: HTTPBody(body)))
            return
        }
        self = .streamed(head, chunks: Self.split(body, sizes: recorded.content.chunks ?? []), ending: failure)
    }

    /// `body` cut into chunks of the recorded sizes; bytes past them (a file edited by hand) in
    /// one last chunk.
    static func split(_ body: Data, sizes: [Int]) -> [Data] {
        var chunks: [Data] = []
        var start = body.startIndex
        for size in sizes where size > 0 && start < body.endIndex {
            let end = body.index(start, offsetBy: min(size, body.endIndex - start))
            chunks.append(body[start..<end])
            start = end
        }
        if start < body.endIndex { chunks.append(body[start...]) }
        return chunks
    }

    /// The response, or the recorded failure thrown.
    func response() async throws -> HTTPResponse {
        switch self {
        case .response(let response): return response
        case .streamed(let head, let chunks, let ending):
            let length = ending == nil ? chunks.reduce(0) { $0 + $1.count } : nil
            return HTTPResponse(
                head: head, body: HTTPBody(stream: ReplayedChunks(chunks: chunks, ending: ending), length: length))
        case .failure(let failure): throw try await failure.replayed()
        }
    }
}

/// A recorded failure, as a replay rebuilds it.
struct RecordedFailure: Sendable {
    let entry: Int
    let kind: String
    let code: Int?
    let message: String
    /// How long the recorded exchange lasted.
    let waited: Duration

    /// How much longer than recorded a replay of an unanswered request waits to be cancelled.
    static let grace = Duration.seconds(10)

    /// The error to throw. A request the caller gave up on (`cancelled`) is not answered: the
    /// replay waits, as the server did, until the caller gives up again (its deadline, its task),
    /// and throws ``CassetteError/unanswered(entry:)`` when that has not happened within the
    /// recorded time and ten seconds more.
    func replayed() async throws -> any Error {
        guard kind == "cancelled" else { return streamEnding() }
        try await Task.sleep(for: waited + Self.grace)
        return CassetteError.unanswered(entry: entry)
    }

    /// The error a stream ends with, and the one a failure other than a cancellation is rebuilt
    /// as: a `URLError` as itself, a cancelled read as `CancellationError`, any other as
    /// ``CassetteError/recordedFailure(entry:kind:message:)``.
    func streamEnding() -> any Error {
        if kind == "cancelled" { return CancellationError() }
        if kind == "URLError", let code, let urlCode = URLError.Code(rawValue: code) { return URLError(urlCode) }
        return CassetteError.recordedFailure(entry: entry, kind: kind, message: message)
    }
}

/// A recorded streamed body: its chunks one by one, then its recorded ending.
struct ReplayedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]
    let ending: RecordedFailure?

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks[...], ending: ending)
    }

    struct Iterator: AsyncIteratorProtocol {
        var chunks: ArraySlice<Data>
        var ending: RecordedFailure?

        mutating func next() async throws -> Data? {
            if let chunk = chunks.popFirst() { return chunk }
            guard let failure = ending else { return nil }
            ending = nil
            throw failure.streamEnding()
        }
    }
}

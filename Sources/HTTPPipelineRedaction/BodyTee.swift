package import Foundation
package import HTTPPipeline

/// Watches one streamed body as it passes to its reader: counts its bytes, keeps a copy of the
/// first ones for the log, and reports once, when the body ends, fails, or is dropped unread.
///
/// The reader gets every chunk exactly as it came, and the body keeps its replayability and
/// length; only the first read of a replayable body is watched. The logging middleware watches
/// streamed bodies with it, and the cassette's recording transport records them with it.
package final class BodyTee: Sendable {
    /// What the tee reports: what passed (the bytes, the first of them), and the error that ended
    /// the read early (``Abandoned`` when the body was dropped before its end), if any.
    package typealias Report = @Sendable (_ seen: Seen, _ error: (any Error)?) -> Void

    /// Why a body's record says it did not end: it was dropped before its last byte was read.
    package struct Abandoned: Error {
        package init() {}
    }

    /// What passed so far: the byte count, the first bytes, and the sizes of the chunks they came
    /// in (while within the kept bytes, and only when asked for).
    package struct Seen: Sendable {
        package var bytes = 0
        package var prefix = Data()
        package var chunks: [Int] = []
    }

    private struct State {
        var claimed = false
        var seen = Seen()
        var reported = false
    }

    private let keep: Int
    private let keepsChunks: Bool
    private let report: Report
    private let state = Locked(State())

    /// - Parameters:
    ///   - keep: The most bytes to copy for the log (0 when bodies are not logged).
    ///   - keepsChunks: Whether to note the size of each chunk within the kept bytes.
    ///   - report: Called once with what passed.
    init(keeping keep: Int, keepsChunks: Bool = false, report: @escaping Report) {
        self.keep = keep
        self.keepsChunks = keepsChunks
        self.report = report
    }

    deinit {
        finish(with: Abandoned())
    }

    /// `body`, watched by a new tee.
    package static func watch(_ body: HTTPBody, keeping keep: Int, report: @escaping Report) -> HTTPBody {
        watching(body, keeping: keep, report: report).body
    }

    /// `body`, watched by a new tee, and the tee, to ask what passed before it reports.
    package static func watching(
        _ body: HTTPBody, keeping keep: Int, keepsChunks: Bool = false, report: @escaping Report
    ) -> (body: HTTPBody, tee: BodyTee) {
        let tee = BodyTee(keeping: keep, keepsChunks: keepsChunks, report: report)
        return (HTTPBody(wrapping: body) { Chunks(base: body, tee: tee) }, tee)
    }

    /// What passed so far.
    package var seen: Seen {
        state.withLock { $0.seen }
    }

    /// Whether this read is the first: only that one is watched.
    fileprivate func claim() -> Bool {
        state.withLock { state in
            defer { state.claimed = true }
            return !state.claimed
        }
    }

    fileprivate func pass(_ chunk: Data) {
        state.withLock { state in
            let room = keep - state.seen.prefix.count
            if room > 0 {
                state.seen.prefix.append(chunk.prefix(room))
                if keepsChunks { state.seen.chunks.append(chunk.count) }
            }
            state.seen.bytes += chunk.count
        }
    }

    fileprivate func finish(with error: (any Error)?) {
        let seen = state.withLock { state -> Seen? in
            guard !state.reported else { return nil }
            state.reported = true
            return state.seen
        }
        guard let seen else { return }
        report(seen, error)
    }

    /// The body's chunks, each shown to the tee on its way.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let base: HTTPBody
        let tee: BodyTee

        func makeAsyncIterator() -> Iterator {
            Iterator(base: base.makeAsyncIterator(), tee: tee.claim() ? tee : nil)
        }

        struct Iterator: AsyncIteratorProtocol {
            var base: HTTPBody.Iterator
            let tee: BodyTee?

            mutating func next() async throws -> Data? {
                do {
                    guard let chunk = try await base.next() else {
                        tee?.finish(with: nil)
                        return nil
                    }
                    tee?.pass(chunk)
                    return chunk
                } catch {
                    tee?.finish(with: error)
                    throw error
                }
            }
        }
    }
}

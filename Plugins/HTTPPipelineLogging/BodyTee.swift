import Foundation
import HTTPPipeline

/// Watches one streamed body as it passes to its reader: counts its bytes, keeps a copy of the
/// first ones for the log, and reports once, when the body ends, fails, or is dropped unread.
///
/// The reader gets every chunk exactly as it came, and the body keeps its replayability and
/// length; only the first read of a replayable body is watched.
final class BodyTee: Sendable {
    /// What the tee reports: the bytes that passed, the first of them, and the error that ended
    /// the read early (``Abandoned`` when the body was dropped before its end), if any.
    typealias Report = @Sendable (_ bytes: Int, _ prefix: Data, _ error: (any Error)?) -> Void

    /// Why a body's record says it did not end: it was dropped before its last byte was read.
    struct Abandoned: Error {}

    private struct State {
        var claimed = false
        var bytes = 0
        var prefix = Data()
        var reported = false
    }

    private let keep: Int
    private let report: Report
    private let state = Locked(State())

    /// - Parameters:
    ///   - keep: The most bytes to copy for the log (0 when bodies are not logged).
    ///   - report: Called once with what passed.
    init(keeping keep: Int, report: @escaping Report) {
        self.keep = keep
        self.report = report
    }

    deinit {
        finish(with: Abandoned())
    }

    /// `body`, watched by a new tee.
    static func watch(_ body: HTTPBody, keeping keep: Int, report: @escaping Report) -> HTTPBody {
        let tee = BodyTee(keeping: keep, report: report)
        guard body.isReplayable else {
            return HTTPBody(stream: Chunks(base: body, tee: tee), length: body.length)
        }
        return HTTPBody(length: body.length) { Chunks(base: body, tee: tee) }
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
            state.bytes += chunk.count
            let room = keep - state.prefix.count
            if room > 0 { state.prefix.append(chunk.prefix(room)) }
        }
    }

    fileprivate func finish(with error: (any Error)?) {
        let seen = state.withLock { state -> (Int, Data)? in
            guard !state.reported else { return nil }
            state.reported = true
            return (state.bytes, state.prefix)
        }
        guard let (bytes, prefix) = seen else { return }
        report(bytes, prefix, error)
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

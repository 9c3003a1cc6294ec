import Foundation
import HTTPPipeline

/// A streamed body whose every chunk must arrive before a deadline: the read still awaited when
/// it passes is cancelled, and the timeout error thrown.
struct DeadlineBoundChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let body: HTTPBody
    let deadline: HTTPDeadline
    let timeline: Timeline
    let error: HTTPTimeoutError

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: Reader(body.makeAsyncIterator()), chunks: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        let reader: Reader
        let chunks: DeadlineBoundChunks

        mutating func next() async throws -> Data? {
            let reader = reader
            return try await chunks.timeline.race(within: chunks.deadline.remaining, orThrow: chunks.error) {
                try await reader.next()
            }
        }
    }

    /// The body's iterator, read from the race's child task.
    ///
    /// `@unchecked Sendable`, and why that is safe: one reader belongs to one iterator, whose
    /// `next()` runs one race at a time and waits for the race's child task, the only code that
    /// touches `base`, to end before it returns. No two accesses to `base` ever overlap, and each
    /// is ordered after the previous by the task group's completion.
    final class Reader: @unchecked Sendable {
        private var base: HTTPBody.Iterator

        init(_ base: HTTPBody.Iterator) {
            self.base = base
        }

        func next() async throws -> Data? {
            try await base.next()
        }
    }
}

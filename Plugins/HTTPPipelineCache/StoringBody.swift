import Foundation
import HTTPPipeline

/// A response body handed to the caller as it arrives while each chunk goes to a store's
/// ``CacheEntryWriter``: committed only once the last chunk has been read, abandoned when the body
/// fails, is dropped early, or grows past the entry limit.
enum StoringBody {
    /// A streamed `body` passed through, its chunks written to `writer` within `limit` bytes;
    /// `finished` is told whether the entry was stored. (A buffered body is complete already: the
    /// middleware stores it at once.)
    static func tee(
        _ body: HTTPBody, limit: Int, writer: any CacheEntryWriter, finished: OnceSignal
    ) -> HTTPBody {
        HTTPBody(
            stream: Chunks(base: body, limit: limit, writer: Abandoning(writer: writer), finished: finished),
            length: body.length)
    }

    /// The writer, abandoned when the body is released before it was committed (the caller read
    /// part of it and let it go).
    final class Abandoning: Sendable {
        let writer: any CacheEntryWriter
        private let done = Locked(false)

        init(writer: any CacheEntryWriter) { self.writer = writer }

        /// Marks the writer finished; `false` when it already was.
        func finish() -> Bool {
            done.withLock { done in
                defer { done = true }
                return !done
            }
        }

        deinit {
            if finish() {
                let writer = self.writer
                Task { await writer.abandon() }
            }
        }
    }

    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let base: HTTPBody
        let limit: Int
        let writer: Abandoning
        let finished: OnceSignal

        func makeAsyncIterator() -> Iterator {
            Iterator(base: base.makeAsyncIterator(), limit: limit, writer: writer, finished: finished)
        }

        struct Iterator: AsyncIteratorProtocol {
            var base: HTTPBody.Iterator
            let limit: Int
            var writer: Abandoning?
            let finished: OnceSignal
            var written = 0

            init(base: HTTPBody.Iterator, limit: Int, writer: Abandoning, finished: OnceSignal) {
                self.base = base
                self.limit = limit
                self.writer = writer
                self.finished = finished
            }

            mutating func next() async throws -> Data? {
                let next: Data?
                do {
                    next = try await base.next()
                } catch {
                    await stop()
                    throw error
                }
                guard let chunk = next else {
                    if let writer, writer.finish() {
                        self.writer = nil
                        do {
                            try await writer.writer.commit()
                            finished.fire(true)
                        } catch {
                            finished.fire(false)
                        }
                    }
                    return nil
                }
                if let writer {
                    written += chunk.count
                    if written > limit {
                        await stop()
                    } else {
                        do {
                            try await writer.writer.write(chunk)
                        } catch {
                            await stop()
                        }
                    }
                }
                return chunk
            }

            /// Stops storing: the writer abandoned, the signal told.
            private mutating func stop() async {
                if let writer, writer.finish() { await writer.writer.abandon() }
                writer = nil
                finished.fire(false)
            }
        }
    }
}

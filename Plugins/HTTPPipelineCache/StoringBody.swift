import Foundation
import HTTPPipeline

/// A response body handed to the caller as it arrives while a copy is kept for the store: stored
/// only once the last chunk has been read, never when the body fails, is dropped early, or grows
/// past the entry limit.
enum StoringBody {
    /// A streamed `body` passed through, with `complete` called with the whole body once it
    /// has been read to its end within `limit` bytes. (A buffered body is complete already: the
    /// middleware stores it at once.)
    /// `giveUp` is called instead when the body fails or passes the limit.
    static func tee(
        _ body: HTTPBody, limit: Int, complete: @escaping @Sendable (Data) async -> Void,
        giveUp: @escaping @Sendable () -> Void
    ) -> HTTPBody {
        HTTPBody(stream: Chunks(base: body, limit: limit, complete: complete, giveUp: giveUp), length: body.length)
    }

    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let base: HTTPBody
        let limit: Int
        let complete: @Sendable (Data) async -> Void
        let giveUp: @Sendable () -> Void

        func makeAsyncIterator() -> Iterator {
            Iterator(base: base.makeAsyncIterator(), limit: limit, complete: complete, giveUp: giveUp)
        }

        struct Iterator: AsyncIteratorProtocol {
            var base: HTTPBody.Iterator
            let limit: Int
            let complete: @Sendable (Data) async -> Void
            let giveUp: @Sendable () -> Void
            var kept: Data? = Data()

            mutating func next() async throws -> Data? {
                let next: Data?
                do {
                    next = try await base.next()
                } catch {
                    if kept != nil { giveUp() }
                    kept = nil
                    throw error
                }
                guard let chunk = next else {
                    if let kept {
                        self.kept = nil
                        await complete(kept)
                    }
                    return nil
                }
                if kept != nil {
                    if (kept?.count ?? 0) + chunk.count > limit {
                        kept = nil
                        giveUp()
                    } else {
                        kept?.append(chunk)
                    }
                }
                return chunk
            }
        }
    }
}

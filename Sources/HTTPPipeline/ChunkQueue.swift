package import Foundation

/// A streamed body's chunks waiting for their one reader, first in first out, with the bytes
/// they hold: the queue both transports keep between the thread that receives and the task that
/// reads.
///
/// Taking a chunk moves an index instead of shifting the array, and the array is emptied, its
/// storage kept, once every chunk in it was taken: a queue that fills and drains allocates
/// nothing after its first fill.
package struct ChunkQueue: Sendable {
    private var chunks: [Data] = []
    private var next = 0
    /// The bytes queued and not yet taken.
    package private(set) var bytes = 0

    package init() {}

    /// Whether no chunk is waiting.
    package var isEmpty: Bool { next == chunks.endIndex }

    /// Queues a chunk after the others.
    package mutating func append(_ chunk: Data) {
        chunks.append(chunk)
        bytes += chunk.count
    }

    /// Takes the oldest chunk, or `nil` when none is waiting.
    package mutating func take() -> Data? {
        guard next < chunks.endIndex else { return nil }
        let chunk = chunks[next]
        chunks[next] = Data()  // the reader holds the only reference to its bytes
        next += 1
        if next == chunks.endIndex {
            chunks.removeAll(keepingCapacity: true)
            next = 0
        }
        bytes -= chunk.count
        return chunk
    }
}

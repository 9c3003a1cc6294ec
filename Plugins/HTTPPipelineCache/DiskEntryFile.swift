import Foundation
import HTTPPipeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An entry file opened for a large body: read in chunks at its own offsets for every read (so
/// the body is replayable and never whole in memory), its digest checked as the chunks pass.
/// The descriptor stays with the file that was opened, so another process replacing or removing
/// the entry does not change what this body reads. Closed when the last body reading it is gone.
final class DiskEntryFile: Sendable {
    let descriptor: Int32
    /// The magic, length and header: hashed first.
    let prefix: Data
    let bodyLength: Int
    /// Called when the digest does not match; returns the problem the read throws.
    let corrupt: @Sendable (_ reason: String) -> CacheStoreProblem

    static let chunkSize = 64 << 10

    init(
        descriptor: Int32, prefix: Data, bodyLength: Int,
        corrupt: @escaping @Sendable (_ reason: String) -> CacheStoreProblem
    ) {
        self.descriptor = descriptor
        self.prefix = prefix
        self.bodyLength = bodyLength
        self.corrupt = corrupt
    }

    deinit { close(descriptor) }

    /// The body's chunks, checked.
    var body: HTTPBody {
        HTTPBody(length: bodyLength) { Chunks(file: self) }
    }

    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let file: DiskEntryFile

        func makeAsyncIterator() -> Iterator { Iterator(file: file) }

        struct Iterator: AsyncIteratorProtocol {
            let file: DiskEntryFile
            var read = 0
            var hasher: SHA256?

            init(file: DiskEntryFile) {
                self.file = file
                var hasher = SHA256()
                hasher.update(file.prefix)
                self.hasher = hasher
            }

            /// The next chunk; at the end, the digest compared with the file's.
            ///
            /// - Throws: ``CacheStoreProblem`` (a corrupt entry) when the file is shorter than
            ///   it was or its digest does not match: the entry is removed.
            mutating func next() async throws -> Data? {
                guard var hasher else { return nil }
                let offset = file.prefix.count + read
                if read == file.bodyLength {
                    self.hasher = nil
                    let stored = try DiskCacheStore.read(file.descriptor, at: offset, count: 32)
                    guard Array(stored) == hasher.finalize() else {
                        throw file.corrupt("its digest does not match: written in part, or altered")
                    }
                    return nil
                }
                let chunk = try DiskCacheStore.read(
                    file.descriptor, at: offset, count: Swift.min(DiskEntryFile.chunkSize, file.bodyLength - read))
                guard !chunk.isEmpty else {
                    self.hasher = nil
                    throw file.corrupt("it ends before its body does")
                }
                hasher.update(chunk)
                self.hasher = hasher
                read += chunk.count
                return chunk
            }
        }
    }
}

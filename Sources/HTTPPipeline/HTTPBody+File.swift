public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPBody {
    /// A body read from a file, in chunks, anew for every read: replayable, so retry, auth and
    /// redirects may send it again, and never held in memory whole.
    ///
    /// ```swift
    /// let upload = try HTTPBody(contentsOf: URL(fileURLWithPath: "/tmp/photo.jpg"))
    /// ```
    ///
    /// - Parameters:
    ///   - file: A file URL.
    ///   - chunkSize: The most bytes read at a time; 64 KiB by default.
    /// - Throws: A file error when the file cannot be read now; one that appears later (the file
    ///   removed between reads) is thrown by the read that meets it.
    public init(contentsOf file: URL, chunkSize: Int = 64 << 10) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        let size = (attributes[.size] as? NSNumber)?.intValue
        let chunk = Swift.max(chunkSize, 1)
        self.init(length: size) { FileChunks(file: file, chunkSize: chunk) }
    }

    /// Writes the body to a file, chunk by chunk: into a temporary file beside `destination`,
    /// moved into place (replacing what was there) only once the last byte is written. When
    /// reading fails, the limit is passed or the task is cancelled, the partial file is removed
    /// and `destination` is left as it was.
    ///
    /// ```swift
    /// let response = try await pipeline.send(request)
    /// let destination = FileManager.default.temporaryDirectory.appendingPathComponent("report.pdf")
    /// let bytes = try await response.body.write(to: destination)
    /// ```
    ///
    /// - Parameters:
    ///   - destination: A file URL.
    ///   - limit: The most bytes to write; `nil` for no limit.
    /// - Returns: The number of bytes written.
    /// - Throws: ``HTTPBodyError/tooLarge(limit:)`` past `limit`, `CancellationError`, what the
    ///   body's stream threw, or a file error.
    @discardableResult
    public func write(to destination: URL, limit: Int? = nil) async throws -> Int {
        let directory = destination.deletingLastPathComponent()
        let partial = directory.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: directory.path])
        }
        var written = 0
        do {
            let handle = try FileHandle(forWritingTo: partial)
            do {
                for try await chunk in self {
                    try Task.checkCancellation()
                    if let limit, chunk.count > limit - written { throw HTTPBodyError.tooLarge(limit: limit) }
                    try handle.write(contentsOf: chunk)
                    written += chunk.count
                }
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            // rename(2) replaces what is there in one step, within one directory. (Foundation's
            // replaceItemAt on Linux moves the old file over the new one, then fails.)
            guard rename(partial.path, destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return written
    }
}

/// A file's bytes in chunks, opened when a read starts.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let file: URL
    let chunkSize: Int

    func makeAsyncIterator() -> Iterator {
        Iterator(file: file, chunkSize: chunkSize)
    }

    struct Iterator: AsyncIteratorProtocol {
        let file: URL
        let chunkSize: Int
        var handle: FileHandle?
        var done = false

        init(file: URL, chunkSize: Int) {
            self.file = file
            self.chunkSize = chunkSize
        }

        mutating func next() async throws -> Data? {
            guard !done else { return nil }
            if handle == nil { handle = try FileHandle(forReadingFrom: file) }
            guard let handle else { return nil }
            let chunk = try handle.read(upToCount: chunkSize) ?? Data()
            guard chunk.isEmpty else { return chunk }
            done = true
            try? handle.close()
            return nil
        }
    }
}

/// Something a ``DiskCacheStore`` met and worked around: the entry is dropped (a miss), nothing
/// crashes. Its description names the file, never a response's content.
public struct CacheStoreProblem: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case corruptEntry, foreignFile, writeFailed, readFailed
    }

    private let code: Code
    /// The file concerned, relative to the store's directory.
    public let file: String
    /// What went wrong, in words.
    public let reason: String

    private init(_ code: Code, file: String, reason: String) {
        self.code = code
        self.file = file
        self.reason = reason
    }

    /// An entry file that is not whole or not what was written (a torn write, a flipped byte,
    /// another version's format): removed.
    static func corruptEntry(_ file: String, reason: String) -> CacheStoreProblem {
        CacheStoreProblem(.corruptEntry, file: file, reason: reason)
    }

    /// A file the store did not write: left alone, never read as an entry.
    static func foreignFile(_ file: String) -> CacheStoreProblem {
        CacheStoreProblem(.foreignFile, file: file, reason: "not a cache entry; left alone")
    }

    /// An entry could not be written (a full disk, a removed directory): not stored.
    static func writeFailed(_ file: String, reason: String) -> CacheStoreProblem {
        CacheStoreProblem(.writeFailed, file: file, reason: reason)
    }

    /// An entry could not be read (another process removed it): dropped.
    static func readFailed(_ file: String, reason: String) -> CacheStoreProblem {
        CacheStoreProblem(.readFailed, file: file, reason: reason)
    }

    /// Whether an entry file was corrupt and removed.
    public var isCorruptEntry: Bool { code == .corruptEntry }
    /// Whether a file the store did not write was found.
    public var isForeignFile: Bool { code == .foreignFile }
    /// Whether an entry could not be written.
    public var isWriteFailed: Bool { code == .writeFailed }
    /// Whether an entry could not be read.
    public var isReadFailed: Bool { code == .readFailed }

    public var description: String { "cache store: \(file): \(reason)" }
}

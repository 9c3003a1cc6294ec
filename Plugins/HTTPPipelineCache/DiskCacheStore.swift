public import Foundation
import HTTPPipeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``CacheStore`` in a directory, bounded by bytes (least recently used first out), that
/// survives a restart.
///
/// - **One file per entry**, named by the SHA-256 of its key and varying values; a private
///   cache's identity is already a digest, so no credential reaches the disk.
/// - **Atomic writes**: an entry is written to a temporary file, flushed, then renamed over its
///   name. A crash or a full disk mid-write leaves at most a temporary file, removed on the next
///   start; a reader sees the old entry or the new one, never a torn one.
/// - **Checked reads**: every entry ends with the SHA-256 of what precedes it. A file that is
///   short, altered or of another format is removed and reported through `onProblem`
///   (``CacheStoreProblem``); it is a miss, never a crash. A file the store did not write is
///   reported once and left alone.
/// - **Restart**: the index (key, variant, size) is rebuilt from the files when the store is made.
/// - **Two processes** may share a directory: each keeps its own index; an entry the other
///   removed is a miss, one it replaced is read whole.
public final class DiskCacheStore: CacheStore {
    private struct Record {
        var file: String
        var varying: [String: String]
        var size: Int
        var used: Int
    }

    private struct Index {
        var records: [String: [Record]] = [:]
        var bytes = 0
        var tick = 0
    }

    /// The directory the entries are in.
    public let directory: URL
    /// The most bytes kept.
    public let capacity: Int
    private let onProblem: @Sendable (CacheStoreProblem) -> Void
    private let index = Locked(Index())
    private let writer: @Sendable (Data, URL) throws -> Void

    static let magic = Array("HPCACHE1".utf8)
    static let suffix = ".entry"
    static let temporaryPrefix = ".writing-"

    /// Opens (or creates) a store in `directory` and rebuilds its index from the files there.
    ///
    /// - Parameters:
    ///   - directory: The store's directory; created if missing. Give it a directory of its own.
    ///   - capacity: The most bytes kept; 256 MiB by default.
    ///   - onProblem: Told about each file dropped or left alone, and each write that failed.
    /// - Throws: When the directory cannot be created or listed.
    public convenience init(
        directory: URL, capacity: Int = 256 << 20, onProblem: @escaping @Sendable (CacheStoreProblem) -> Void = { _ in }
    ) throws {
        try self.init(directory: directory, capacity: capacity, onProblem: onProblem, writer: DiskCacheStore.write)
    }

    /// The same, with the function that writes a file's bytes (tests give one that fails).
    init(
        directory: URL, capacity: Int, onProblem: @escaping @Sendable (CacheStoreProblem) -> Void,
        writer: @escaping @Sendable (Data, URL) throws -> Void
    ) throws {
        self.directory = directory
        self.capacity = max(capacity, 0)
        self.onProblem = onProblem
        self.writer = writer
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try rebuild()
    }

    /// The bytes held now.
    public var bytes: Int { index.withLock { $0.bytes } }

    public func entries(forKey key: String) async -> [CacheEntry] {
        let records = index.withLock { index -> [Record] in
            index.tick += 1
            guard var records = index.records[key] else { return [] }
            for position in records.indices { records[position].used = index.tick }
            index.records[key] = records
            return records
        }
        var entries: [CacheEntry] = []
        for record in records {
            if let entry = read(record.file) {
                entries.append(entry)
            } else {
                forget(key: key, file: record.file)
            }
        }
        return entries
    }

    public func store(_ entry: CacheEntry) async {
        guard entry.size <= capacity else { return }
        let file = Self.fileName(key: entry.key, varying: entry.varying)
        let bytes = Self.encode(entry)
        let temporary = directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
        do {
            try writer(bytes, temporary)
            guard rename(temporary.path, directory.appendingPathComponent(file).path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            onProblem(.writeFailed(file, reason: "\(error)"))
            return
        }
        let evicted = index.withLock { index -> [String] in
            index.tick += 1
            var records = index.records[entry.key] ?? []
            if let position = records.firstIndex(where: { $0.file == file }) {
                index.bytes -= records[position].size
                records.remove(at: position)
            }
            records.insert(Record(file: file, varying: entry.varying, size: entry.size, used: index.tick), at: 0)
            index.records[entry.key] = records
            index.bytes += entry.size
            return Self.evict(&index, to: capacity)
        }
        for file in evicted { try? FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
    }

    public func removeEntries(forKey key: String) async {
        let removed = index.withLock { index -> [Record] in
            let removed = index.records.removeValue(forKey: key) ?? []
            index.bytes -= removed.reduce(0) { $0 + $1.size }
            return removed
        }
        for record in removed { try? FileManager.default.removeItem(at: directory.appendingPathComponent(record.file)) }
    }

    public func removeAll() async {
        let files = index.withLock { index -> [String] in
            let files = index.records.values.flatMap { $0.map(\.file) }
            index = Index()
            return files
        }
        for file in files { try? FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
    }

    // MARK: - Files

    /// Reads every entry file into the index; removes temporary files a crash left; reports
    /// corrupt files (removed) and foreign ones (left).
    private func rebuild() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for name in names {
            if name.hasPrefix(Self.temporaryPrefix) {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
                continue
            }
            guard name.hasSuffix(Self.suffix) else {
                onProblem(.foreignFile(name))
                continue
            }
            guard let entry = read(name) else { continue }
            index.withLock { index in
                index.tick += 1
                index.records[entry.key, default: []].append(
                    Record(file: name, varying: entry.varying, size: entry.size, used: index.tick))
                index.bytes += entry.size
            }
        }
        let evicted = index.withLock { Self.evict(&$0, to: capacity) }
        for file in evicted { try? FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
    }

    /// The entry in `file`, or `nil` (the file removed and reported when it is corrupt).
    private func read(_ file: String) -> CacheEntry? {
        let url = directory.appendingPathComponent(file)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            onProblem(.readFailed(file, reason: "\(error)"))
            return nil
        }
        do {
            let entry = try Self.decode(data)
            guard Self.fileName(key: entry.key, varying: entry.varying) == file else {
                throw DecodingProblem("its name is not its content's")
            }
            return entry
        } catch {
            try? FileManager.default.removeItem(at: url)
            onProblem(.corruptEntry(file, reason: (error as? DecodingProblem)?.reason ?? "\(error)"))
            return nil
        }
    }

    private func forget(key: String, file: String) {
        index.withLock { index in
            guard var records = index.records[key], let position = records.firstIndex(where: { $0.file == file }) else {
                return
            }
            index.bytes -= records[position].size
            records.remove(at: position)
            index.records[key] = records.isEmpty ? nil : records
        }
    }

    /// Drops the least recently used records until `capacity` holds; returns their files.
    private static func evict(_ index: inout Index, to capacity: Int) -> [String] {
        var files: [String] = []
        while index.bytes > capacity {
            var oldest: (key: String, position: Int, used: Int)?
            for (key, records) in index.records {
                for (position, record) in records.enumerated() where record.used < (oldest?.used ?? .max) {
                    oldest = (key, position, record.used)
                }
            }
            guard let oldest, var records = index.records[oldest.key] else { break }
            index.bytes -= records[oldest.position].size
            files.append(records.remove(at: oldest.position).file)
            index.records[oldest.key] = records.isEmpty ? nil : records
        }
        return files
    }

    /// Writes `bytes` to `url` and flushes them to the disk.
    static func write(_ bytes: Data, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: bytes)
        try handle.synchronize()
    }

    /// The file of an entry: the SHA-256 of its key and varying values.
    static func fileName(key: String, varying: [String: String]) -> String {
        var text = key
        for (name, value) in varying.sorted(by: { $0.key < $1.key }) { text += "\u{0}" + name + "\u{1}" + value }
        return SHA256.hex(text) + suffix
    }
}

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
/// - **Streamed bodies**: a streamed response is written to its file as the caller reads it, and
///   a body larger than ``wholeReadLimit`` is served from its file in chunks, so neither storing
///   nor serving a large body holds it in memory.
/// - **Checked reads**: every entry ends with the SHA-256 of what precedes it. A file that is
///   short, altered or of another format is removed and reported through `onProblem`
///   (``CacheStoreProblem``); it is a miss, never a crash. An entry up to ``wholeReadLimit`` is
///   checked before it is served; a larger one as it is read, its last read throwing the
///   ``CacheStoreProblem`` when the digest does not match. A file the store did not write is
///   reported once and left alone.
/// - **Restart**: the index (key, variant, size) is rebuilt from the files' headers when the
///   store is made.
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
    /// Writes bytes to a file descriptor (tests give one that fails).
    let writeBytes: @Sendable (Int32, UnsafeRawBufferPointer) throws -> Void

    /// The largest entry file read whole and checked before it is served; a larger one's body is
    /// read from its file as the caller reads it.
    public static let wholeReadLimit = 256 << 10

    static let magic = Array("HPCACHE2".utf8)
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
        try self.init(
            directory: directory, capacity: capacity, onProblem: onProblem, writeBytes: DiskCacheStore.writeAll)
    }

    /// The same, with the function that writes bytes to a file (tests give one that fails).
    init(
        directory: URL, capacity: Int, onProblem: @escaping @Sendable (CacheStoreProblem) -> Void,
        writeBytes: @escaping @Sendable (Int32, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        self.directory = directory
        self.capacity = max(capacity, 0)
        self.onProblem = onProblem
        self.writeBytes = writeBytes
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
        guard entry.size <= capacity, let writer = DiskEntryWriter(store: self, entry: entry) else { return }
        do {
            if let data = entry.body.bufferedData {
                try await writer.write(data)
            } else {
                for try await chunk in entry.body { try await writer.write(chunk) }
            }
            try await writer.commit()
        } catch {
            await writer.abandon()
        }
    }

    public func writer(for entry: CacheEntry) async -> (any CacheEntryWriter)? {
        guard entry.overhead <= capacity else { return nil }
        return DiskEntryWriter(store: self, entry: entry)
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

    /// Reads every entry file's header into the index; removes temporary files a crash left;
    /// reports corrupt files (removed) and foreign ones (left).
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

    /// The entry in `file`, or `nil` (the file removed and reported when it is corrupt). Up to
    /// ``wholeReadLimit`` it is read and checked whole; a larger one keeps the file open and
    /// reads its body when the body is read.
    private func read(_ file: String) -> CacheEntry? {
        let path = directory.appendingPathComponent(file).path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            onProblem(.readFailed(file, reason: "\(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))"))
            return nil
        }
        var kept = false
        defer { if !kept { close(descriptor) } }
        do {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let size = Int(status.st_size)
            let headerLength = try Self.headerLength(Self.read(descriptor, at: 0, count: Self.magic.count + 4))
            let bodyStart = Self.magic.count + 4 + headerLength
            guard headerLength >= 0, size >= bodyStart + 32 else {
                throw DecodingProblem("its header runs past its end")
            }
            let bodyLength = size - bodyStart - 32
            let entry: CacheEntry
            if size <= Self.wholeReadLimit {
                let bytes = try Self.read(descriptor, at: 0, count: size)
                guard bytes.count == size, SHA256.digest(bytes.prefix(size - 32)) == Array(bytes.suffix(32)) else {
                    throw DecodingProblem("its digest does not match: written in part, or altered")
                }
                entry = try Self.entry(
                    header: bytes.subdata(in: (Self.magic.count + 4)..<bodyStart),
                    body: HTTPBody(bytes.subdata(in: bodyStart..<(bodyStart + bodyLength))))
            } else {
                let prefix = try Self.read(descriptor, at: 0, count: bodyStart)
                guard prefix.count == bodyStart else { throw DecodingProblem("its header runs past its end") }
                let inode = Self.inode(descriptor: descriptor)
                let opened = DiskEntryFile(descriptor: descriptor, prefix: prefix, bodyLength: bodyLength) {
                    [weak self] reason in
                    let problem = CacheStoreProblem.corruptEntry(file, reason: reason)
                    self?.dropCorrupt(file, inode: inode, problem: problem)
                    return problem
                }
                kept = true
                entry = try Self.entry(
                    header: prefix.subdata(in: (Self.magic.count + 4)..<bodyStart), body: opened.body)
            }
            guard Self.fileName(key: entry.key, varying: entry.varying) == file else {
                throw DecodingProblem("its name is not its content's")
            }
            return entry
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            onProblem(.corruptEntry(file, reason: (error as? DecodingProblem)?.reason ?? "\(error)"))
            return nil
        }
    }

    /// A large entry found corrupt as it was read: removed, unless another writer has replaced
    /// the file since it was opened, and forgotten.
    private func dropCorrupt(_ file: String, inode: UInt64?, problem: CacheStoreProblem) {
        let path = directory.appendingPathComponent(file).path
        if let inode, Self.inode(path: path) == inode { unlink(path) }
        index.withLock { index in
            for (key, records) in index.records {
                guard let position = records.firstIndex(where: { $0.file == file }) else { continue }
                var records = records
                index.bytes -= records[position].size
                records.remove(at: position)
                index.records[key] = records.isEmpty ? nil : records
            }
        }
        onProblem(problem)
    }

    /// Tells `onProblem` (for writers).
    func report(_ problem: CacheStoreProblem) { onProblem(problem) }

    /// A written entry's temporary file renamed over its name, and indexed; the least recently
    /// used entries evicted past the capacity.
    func install(temporary: URL, as file: String, key: String, varying: [String: String], size: Int) throws {
        guard rename(temporary.path, directory.appendingPathComponent(file).path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            unlink(temporary.path)
            onProblem(.writeFailed(file, reason: "\(error)"))
            throw error
        }
        let evicted = index.withLock { index -> [String] in
            index.tick += 1
            var records = index.records[key] ?? []
            if let position = records.firstIndex(where: { $0.file == file }) {
                index.bytes -= records[position].size
                records.remove(at: position)
            }
            records.insert(Record(file: file, varying: varying, size: size, used: index.tick), at: 0)
            index.records[key] = records
            index.bytes += size
            return Self.evict(&index, to: capacity)
        }
        for file in evicted { try? FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
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

    /// The file of an entry: the SHA-256 of its key and varying values.
    static func fileName(key: String, varying: [String: String]) -> String {
        var text = key
        for (name, value) in varying.sorted(by: { $0.key < $1.key }) { text += "\u{0}" + name + "\u{1}" + value }
        return SHA256.hex(text) + suffix
    }

    /// A body past the store's capacity: not stored (and not a problem to report).
    struct TooLarge: Error {}
}

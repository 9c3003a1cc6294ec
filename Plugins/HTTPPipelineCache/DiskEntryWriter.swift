import Foundation
import HTTPPipeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An entry on its way into a ``DiskCacheStore``: written to a temporary file as its chunks come,
/// hashed as they pass; on commit the digest is appended, the file flushed and renamed over the
/// entry's name. Abandoned (or released uncommitted), the temporary file is removed.
final class DiskEntryWriter: CacheEntryWriter {
    private struct State {
        var descriptor: Int32
        var hasher = SHA256()
        var bodyBytes = 0
    }

    private let store: DiskCacheStore
    private let entry: CacheEntry
    private let file: String
    private let temporary: URL
    /// `nil` once committed or abandoned.
    private let state: Locked<State?>

    /// Opens the temporary file and writes what precedes the body; `nil` (reported) when it
    /// cannot.
    init?(store: DiskCacheStore, entry: CacheEntry) {
        self.store = store
        self.entry = entry
        file = DiskCacheStore.fileName(key: entry.key, varying: entry.varying)
        temporary = store.directory.appendingPathComponent(DiskCacheStore.temporaryPrefix + UUID().uuidString)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            store.report(.writeFailed(file, reason: "\(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))"))
            return nil
        }
        state = Locked(State(descriptor: descriptor))
        do {
            try append(DiskCacheStore.prefix(for: entry), body: false)
        } catch {
            return nil
        }
    }

    deinit { discard() }

    func write(_ chunk: Data) async throws {
        try append(chunk, body: true)
    }

    func commit() async throws {
        let bodyBytes: Int? = try state.withLock { state in
            guard let current = state else { return nil }
            do {
                let digest = current.hasher.finalize()
                try digest.withUnsafeBytes { try store.writeBytes(current.descriptor, $0) }
                guard fsync(current.descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            } catch {
                close(current.descriptor)
                state = nil
                unlink(temporary.path)
                store.report(.writeFailed(file, reason: "\(error)"))
                throw error
            }
            close(current.descriptor)
            state = nil
            return current.bodyBytes
        }
        guard let bodyBytes else { return }
        try store.install(
            temporary: temporary, as: file, key: entry.key, varying: entry.varying, size: entry.overhead + bodyBytes)
    }

    func abandon() async {
        discard()
    }

    /// Writes `bytes`; for a body's, counts them against the capacity and hashes them.
    private func append(_ bytes: Data, body: Bool) throws {
        try state.withLock { state in
            guard var current = state else { throw CancellationError() }
            do {
                if body, entry.overhead + current.bodyBytes + bytes.count > store.capacity {
                    throw DiskCacheStore.TooLarge()
                }
                try bytes.withUnsafeBytes { try store.writeBytes(current.descriptor, $0) }
            } catch {
                close(current.descriptor)
                state = nil
                unlink(temporary.path)
                if !(error is DiskCacheStore.TooLarge) { store.report(.writeFailed(file, reason: "\(error)")) }
                throw error
            }
            current.hasher.update(bytes)
            if body { current.bodyBytes += bytes.count }
            state = current
        }
    }

    /// Closes and removes the temporary file, unless committed already.
    private func discard() {
        state.withLock { state in
            guard let current = state else { return }
            close(current.descriptor)
            unlink(temporary.path)
            state = nil
        }
    }
}

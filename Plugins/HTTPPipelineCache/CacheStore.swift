public import Foundation
import HTTPPipeline

/// Where a ``CacheMiddleware`` keeps responses: ``MemoryCacheStore``, ``DiskCacheStore``, or your
/// own.
///
/// A key holds the variants of one resource (one entry per combination of the fields its `Vary`
/// names). Calls come from many tasks at once; an implementation serialises what it must.
///
/// A streamed response is stored as the caller reads it: the middleware asks for a
/// ``writer(for:)``, passes it each chunk, and commits it once the body has been read to its end
/// within ``CacheOptions/maximumEntryBytes``; a body that fails, is dropped early or grows past
/// the limit is abandoned and never becomes visible. The default writer collects the chunks in
/// memory and calls ``store(_:)``; a store that keeps bodies elsewhere (``DiskCacheStore``)
/// writes them there as they come.
public protocol CacheStore: Sendable {
    /// The variants stored under `key`, most recently stored first.
    func entries(forKey key: String) async -> [CacheEntry]

    /// Stores `entry`, replacing the variant of its key with the same varying values.
    func store(_ entry: CacheEntry) async

    /// A writer that stores `entry` with the body it is given chunk by chunk, or `nil` when the
    /// store declines it. `entry`'s own body is empty.
    func writer(for entry: CacheEntry) async -> (any CacheEntryWriter)?

    /// Removes every variant stored under `key`.
    func removeEntries(forKey key: String) async

    /// Removes everything: on sign-out, or to start clean.
    func removeAll() async
}

/// A body on its way into a ``CacheStore``: ``write(_:)`` for each chunk, then ``commit()`` when
/// the body is whole, or ``abandon()`` when it is not. An uncommitted writer that is released
/// leaves nothing behind.
public protocol CacheEntryWriter: Sendable {
    /// Adds the next chunk of the body.
    ///
    /// - Throws: When the store cannot keep it (a full disk, past its capacity): the middleware
    ///   stops storing, and the caller's body goes on.
    func write(_ chunk: Data) async throws

    /// The body is whole: the entry becomes visible, replacing the variant it replaces.
    ///
    /// - Throws: When it cannot be stored after all; nothing is stored then.
    func commit() async throws

    /// The body is not whole: nothing is stored, and what was written is removed.
    func abandon() async
}

extension CacheStore {
    /// A writer that collects the body in memory and hands the whole entry to ``store(_:)``.
    public func writer(for entry: CacheEntry) async -> (any CacheEntryWriter)? {
        CollectingEntryWriter(entry: entry, store: self)
    }
}

/// The default writer: the body collected in memory, stored whole on commit.
final class CollectingEntryWriter: CacheEntryWriter {
    private let entry: CacheEntry
    private let store: any CacheStore
    private let body = Locked<Data?>(Data())

    init(entry: CacheEntry, store: any CacheStore) {
        self.entry = entry
        self.store = store
    }

    func write(_ chunk: Data) async throws {
        try body.withLock { body in
            guard body != nil else { throw CancellationError() }
            body?.append(chunk)
        }
    }

    func commit() async throws {
        guard
            let data = body.withLock({ body in
                defer { body = nil }
                return body
            })
        else { return }
        await store.store(entry.replacingBody(HTTPBody(data)))
    }

    func abandon() async {
        body.withLock { $0 = nil }
    }
}

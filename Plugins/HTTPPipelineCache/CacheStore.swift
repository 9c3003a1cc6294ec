/// Where a ``CacheMiddleware`` keeps responses: ``MemoryCacheStore``, or your own.
///
/// A key holds the variants of one resource (one entry per combination of the fields its `Vary`
/// names). Calls come from many tasks at once; an implementation serialises what it must.
public protocol CacheStore: Sendable {
    /// The variants stored under `key`, most recently stored first.
    func entries(forKey key: String) async -> [CacheEntry]

    /// Stores `entry`, replacing the variant of its key with the same varying values.
    func store(_ entry: CacheEntry) async

    /// Removes every variant stored under `key`.
    func removeEntries(forKey key: String) async

    /// Removes everything: on sign-out, or to start clean.
    func removeAll() async
}

import Foundation
import HTTPPipeline

/// A ``CacheStore`` in memory, bounded by bytes: storing past the bound evicts the least recently
/// used entries first. An entry larger than the bound is not stored.
public final class MemoryCacheStore: CacheStore {
    private struct State {
        var entries: [String: [Slot]] = [:]
        var bytes = 0
        var tick = 0
    }

    private struct Slot {
        var entry: CacheEntry
        var used: Int
    }

    private let state = Locked(State())
    /// The most bytes kept.
    public let capacity: Int

    /// Creates a store.
    ///
    /// - Parameter capacity: The most bytes kept (bodies, fields and keys); 16 MiB by default.
    public init(capacity: Int = 16 << 20) {
        self.capacity = max(capacity, 0)
    }

    /// The bytes held now.
    public var bytes: Int { state.withLock { $0.bytes } }

    public func entries(forKey key: String) async -> [CacheEntry] {
        state.withLock { state in
            guard var slots = state.entries[key] else { return [] }
            state.tick += 1
            for index in slots.indices { slots[index].used = state.tick }
            state.entries[key] = slots
            return slots.map(\.entry)
        }
    }

    public func store(_ entry: CacheEntry) async {
        let size = entry.size
        guard size <= capacity else { return }
        guard entry.body.bufferedData != nil else {
            // Another store's streamed body: kept here as bytes.
            guard let data = try? await entry.body.collect(upTo: capacity) else { return }
            return await store(entry.replacingBody(HTTPBody(data)))
        }
        state.withLock { state in
            state.tick += 1
            var slots = state.entries[entry.key] ?? []
            if let index = slots.firstIndex(where: { $0.entry.varying == entry.varying }) {
                state.bytes -= slots[index].entry.size
                slots.remove(at: index)
            }
            slots.insert(Slot(entry: entry, used: state.tick), at: 0)
            state.entries[entry.key] = slots
            state.bytes += size
            Self.evict(&state, to: capacity)
        }
    }

    public func removeEntries(forKey key: String) async {
        state.withLock { state in
            let removed = state.entries.removeValue(forKey: key) ?? []
            state.bytes -= removed.reduce(0) { $0 + $1.entry.size }
        }
    }

    public func removeAll() async {
        state.withLock { $0 = State() }
    }

    /// Drops the least recently used entries until `capacity` holds.
    private static func evict(_ state: inout State, to capacity: Int) {
        while state.bytes > capacity {
            var oldest: (key: String, index: Int, used: Int)?
            for (key, slots) in state.entries {
                for (index, slot) in slots.enumerated() where slot.used < (oldest?.used ?? .max) {
                    oldest = (key, index, slot.used)
                }
            }
            guard let oldest, var slots = state.entries[oldest.key] else { return }
            state.bytes -= slots[oldest.index].entry.size
            slots.remove(at: oldest.index)
            state.entries[oldest.key] = slots.isEmpty ? nil : slots
        }
    }
}

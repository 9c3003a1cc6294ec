import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The most bytes a decoded body may have, and the limit to name when it would have more.
package struct OutputLimit: Sendable, Equatable {
    /// The most decoded bytes.
    package var bytes: Int
    /// The limit reported when `bytes` would be passed.
    package var error: GzipError.Limit

    package init(bytes: Int, error: GzipError.Limit) {
        self.bytes = min(max(0, bytes), Int.max - 1)
        self.error = error
    }

    /// No limit short of what memory allows; for the benchmark and tests.
    package static let unlimited = OutputLimit(bytes: Int.max - 1, error: .decodedSize(Int.max - 1))
}

/// What a decoder allocated, for tests and the benchmark.
package struct DecodeStatistics: Sendable, Equatable {
    /// The largest capacity the output buffer had, in bytes.
    package var peakCapacity = 0
    /// How many times the output buffer grew after its first allocation.
    package var growths = 0

    package init() {}
}

/// The decoded bytes, in memory from `malloc` that becomes the returned `Data` without a copy.
///
/// Its capacity never passes `limit.bytes + 1` (one byte more than allowed, so that a body one
/// byte over the limit is told apart from one exactly at it). It grows geometrically with
/// `realloc`, which for large blocks remaps pages instead of copying them, and it never
/// zero-fills: pages that are reserved but never written cost no memory.
struct OutputBuffer: ~Copyable {
    private(set) var base: UnsafeMutablePointer<UInt8>?
    private(set) var capacity = 0
    var count = 0
    let limit: OutputLimit
    private(set) var statistics = DecodeStatistics()

    /// The hard ceiling on the capacity: the limit plus the one byte that detects passing it.
    private var ceiling: Int { limit.bytes + 1 }

    init(limit: OutputLimit) {
        self.limit = limit
    }

    deinit {
        free(base)
    }

    /// Room left before the next growth.
    var available: Int { capacity - count }

    /// Where the next decoded byte goes; `nil` before the first allocation.
    var end: UnsafeMutablePointer<UInt8>? {
        base.map { $0 + count }
    }

    /// Throws when more than `limit.bytes` were written.
    func checkLimit() throws(GzipError) {
        if count > limit.bytes { throw .limitExceeded(limit.error) }
    }

    /// Makes the capacity at least `minimum` (bounded by the ceiling), or at least twice what it
    /// was when `minimum` is `nil`.
    mutating func grow(toAtLeast minimum: Int? = nil) throws(GzipError) {
        guard capacity < ceiling else { throw .limitExceeded(limit.error) }
        let doubled = capacity > ceiling / 2 ? ceiling : max(capacity * 2, capacity + 16 << 10)
        let wanted = min(ceiling, max(minimum ?? doubled, capacity + 1))
        guard let grown = realloc(base, wanted) else {
            throw .zlibFailure(message: "could not allocate \(wanted) bytes for the decoded body")
        }
        if base != nil { statistics.growths += 1 }
        base = grown.assumingMemoryBound(to: UInt8.self)
        capacity = wanted
        statistics.peakCapacity = max(statistics.peakCapacity, wanted)
    }

    /// Forgets the bytes written, keeping the memory, to decode the same input another way.
    mutating func reset() {
        count = 0
    }

    /// Hands the bytes over as `Data`, without copying them; the buffer is empty afterwards.
    mutating func takeData() -> Data {
        guard let base, count > 0 else { return Data() }
        var pointer = base
        // Give back a large unused tail; `realloc` to a smaller size does not move small blocks
        // and remaps large ones, so this does not copy the body.
        if capacity - count > 64 << 10, let shrunk = realloc(base, count) {
            pointer = shrunk.assumingMemoryBound(to: UInt8.self)
        }
        self.base = nil
        capacity = 0
        let count = self.count
        self.count = 0
        return Data(bytesNoCopy: pointer, count: count, deallocator: .free)
    }
}

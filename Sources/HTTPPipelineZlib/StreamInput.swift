import Foundation

/// The bytes a ``StreamingInflater`` was given and has not used yet, kept as the chunks they came
/// in (never copied or joined).
///
/// While a deflate body is probed (zlib or raw? deflate at all?) it also keeps the bytes already
/// used, so that they can be read again from the start.
struct StreamInput {
    private var chunks: [Data] = []
    /// The chunk being read.
    private var first = 0
    /// The bytes of `chunks[first]` already used.
    private var offset = 0
    /// Whether used bytes are kept, to ``rewind()`` to.
    private var retaining = false

    /// How many bytes were ever appended.
    private(set) var appended = 0

    /// Whether every appended byte was used.
    var isEmpty: Bool { first == chunks.count }

    /// Adds bytes after the ones held.
    mutating func append(_ chunk: Data) {
        guard !chunk.isEmpty else { return }
        appended += chunk.count
        chunks.append(chunk)
    }

    /// Calls `body` with the unused bytes of the front chunk (empty when every byte was used).
    func withFront<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard first < chunks.count else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let offset = self.offset
        return chunks[first].withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
    }

    /// Marks `count` bytes at the front as used.
    mutating func advance(by count: Int) {
        offset += count
        while first < chunks.count, offset >= chunks[first].count {
            offset -= chunks[first].count
            first += 1
        }
        if !retaining, first > 0 {
            chunks.removeFirst(first)
            first = 0
        }
    }

    /// The unused bytes of the front chunk, now used; `nil` when there are none.
    mutating func takeFront() -> Data? {
        guard first < chunks.count else { return nil }
        let chunk = chunks[first]
        let rest = offset == 0 ? chunk : chunk[(chunk.startIndex + offset)...]
        advance(by: rest.count)
        return rest
    }

    /// Up to `count` of the next bytes, left unused: fewer when fewer are held.
    func peek(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = first
        var position = offset
        while bytes.count < count, index < chunks.count {
            let chunk = chunks[index]
            let start = chunk.startIndex + position
            let end = min(chunk.endIndex, start + count - bytes.count)
            bytes += chunk[start..<end]
            index += 1
            position = 0
        }
        return bytes
    }

    /// Moves bytes from the front to `bytes` until it has `count`; whether it has.
    mutating func collect(into bytes: inout [UInt8], upTo count: Int) -> Bool {
        while bytes.count < count, !isEmpty {
            let wanted = count - bytes.count
            let taken = withFront { front -> Int in
                let taken = min(wanted, front.count)
                bytes += front[0..<taken]
                return taken
            }
            advance(by: taken)
        }
        return bytes.count == count
    }

    /// Starts keeping the bytes used from now on; called before any byte is used.
    mutating func startRetaining() {
        retaining = true
    }

    /// Stops keeping used bytes, and lets go of those kept.
    mutating func stopRetaining() {
        retaining = false
        advance(by: 0)
    }

    /// Makes every kept byte unused again, from the first one.
    mutating func rewind() {
        first = 0
        offset = 0
    }
}

import Foundation
import HTTPPipeline

/// One read of a response body as it came from below: the chunks already read ahead (to look at
/// the first bytes before the head is handed up), then the rest of the same read.
///
/// The body's iterator is made on the first read, so a body never read is never taken.
struct WireRead {
    private let body: HTTPBody
    private var iterator: HTTPBody.Iterator?
    private var ahead: [Data] = []
    private var aheadIndex = 0
    /// Bytes read from the body so far, those read ahead included.
    private(set) var count = 0
    /// Whether the body ended.
    private(set) var ended = false

    init(_ body: HTTPBody) {
        self.body = body
    }

    /// Whether nothing was read from the body yet.
    var isUntouched: Bool { iterator == nil }

    /// Reads ahead until `minimum` bytes are held or the body ends.
    mutating func readAhead(_ minimum: Int) async throws {
        while !ended, count < minimum {
            guard let chunk = try await pull() else { break }
            ahead.append(chunk)
        }
    }

    /// The bytes read ahead and not yet handed out, joined.
    var bytesAhead: Data {
        let waiting = ahead[aheadIndex...]
        return waiting.count == 1 ? waiting[waiting.startIndex] : waiting.reduce(into: Data()) { $0.append($1) }
    }

    /// Whether the body read ahead starts with gzip's magic bytes.
    var startsWithGzipMagic: Bool {
        var first: [UInt8] = []
        for chunk in ahead where first.count < 2 { first += chunk.prefix(2 - first.count) }
        return first == [0x1f, 0x8b]
    }

    /// The next chunk: those read ahead first; `nil` at the end.
    mutating func next() async throws -> Data? {
        if aheadIndex < ahead.count {
            defer {
                aheadIndex += 1
                if aheadIndex == ahead.count {
                    ahead = []
                    aheadIndex = 0
                }
            }
            return ahead[aheadIndex]
        }
        return try await pull()
    }

    private mutating func pull() async throws -> Data? {
        guard !ended else { return nil }
        if iterator == nil { iterator = body.makeAsyncIterator() }
        while let chunk = try await iterator?.next() {
            guard !chunk.isEmpty else { continue }
            count += chunk.count
            return chunk
        }
        ended = true
        return nil
    }
}

/// A read of a body begun by the middleware, waiting for the reader of the body it hands up.
///
/// The first read of that body takes it (and goes on where the middleware stopped); any later
/// read of a replayable body reads the body from below again.
final class BegunRead: Sendable {
    /// `@unchecked Sendable`: a `WireRead` holds the body's iterator, which is not `Sendable`
    /// (it belongs to one reader). It is safe here because the read changes hands exactly once
    /// and is never used by two tasks at the same time: the middleware stops using it before it
    /// stores it, ``take()`` hands it out at most once under the lock (which orders the
    /// middleware's last use before the reader's first), and from then on only the one reader
    /// that took it uses it.
    private struct Handover: @unchecked Sendable {
        var read: WireRead
    }

    private let handover: Locked<Handover?>

    init(_ read: WireRead) {
        handover = Locked(Handover(read: read))
    }

    /// The read, the first time; `nil` after.
    func take() -> WireRead? {
        handover.withLock { handover -> Handover? in
            defer { handover = nil }
            return handover
        }?.read
    }
}

/// The body from below, handed up as it is after some of it was read ahead.
struct ResumedBody: AsyncSequence, Sendable {
    typealias Element = Data

    let body: HTTPBody
    let begun: BegunRead

    func makeAsyncIterator() -> Iterator {
        Iterator(read: begun.take() ?? WireRead(body))
    }

    struct Iterator: AsyncIteratorProtocol {
        var read: WireRead

        mutating func next() async throws -> Data? {
            try await read.next()
        }
    }

    /// The body to hand up: `body` itself when nothing was read from it.
    static func body(_ body: HTTPBody, after read: WireRead) -> HTTPBody {
        if read.isUntouched { return body }
        let resumed = ResumedBody(body: body, begun: BegunRead(read))
        return HTTPBody(wrapping: body) { resumed }
    }
}

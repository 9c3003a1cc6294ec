public import Foundation

/// A request or response body: buffered bytes, or a stream of byte chunks, with whether it can be
/// read more than once in its type.
///
/// - A **buffered** body (`HTTPBody(data)`) is replayable and its length is known: the fast path.
/// - A **replayable stream** (`HTTPBody(replayable:length:)`) makes a new stream for every read,
///   for example by opening a file again.
/// - A **single-pass stream** (`HTTPBody(stream:length:)`) can be read once: a second read
///   throws ``HTTPBodyError/alreadyConsumed`` at its first chunk, never silent empty bytes. Retry,
///   auth and redirects check ``isReplayable`` before sending a body again.
///
/// ```swift
/// let body = HTTPBody(Data("hello".utf8))
/// let bytes = try await body.collect(upTo: 1 << 20)   // Data, at most 1 MiB
/// ```
public struct HTTPBody: Sendable, AsyncSequence {
    /// One chunk of bytes.
    public typealias Element = Data

    @usableFromInline
    enum Storage: Sendable {
        case buffered(Data)
        case stream(StreamSource)
    }

    @usableFromInline let storage: Storage

    /// The number of bytes, when known in advance.
    public let length: Int?

    /// A buffered body.
    ///
    /// - Parameter data: The bytes.
    @inlinable
    public init(_ data: Data) {
        storage = .buffered(data)
        length = data.count
    }

    /// An empty body.
    public static var empty: HTTPBody { HTTPBody(Data()) }

    /// A body that streams `stream`'s chunks once.
    ///
    /// - Parameters:
    ///   - stream: The chunks.
    ///   - length: The number of bytes, if known.
    public init<Chunks: AsyncSequence & Sendable>(stream: Chunks, length: Int? = nil)
    where Chunks.Element == Data {
        storage = .stream(StreamSource(replayable: false) { StreamSource.erase(stream) })
        self.length = length
    }

    /// A body that streams again for every read: `makeStream` is called once per read.
    ///
    /// - Parameters:
    ///   - length: The number of bytes, if known.
    ///   - makeStream: Makes a fresh stream of the body's chunks.
    public init<Chunks: AsyncSequence & Sendable>(
        length: Int? = nil,
        replayable makeStream: @escaping @Sendable () -> Chunks
    ) where Chunks.Element == Data {
        storage = .stream(StreamSource(replayable: true) { StreamSource.erase(makeStream()) })
        self.length = length
    }

    /// A body that reads `base` through other chunks, as one kind of body as `base`: what a layer
    /// that watches, decodes or bounds a body wraps it with.
    ///
    /// A replayable `base` makes a replayable body (`makeStream` is called for every read, and
    /// should read `base` afresh each time); a single-pass one makes a single-pass body, read once.
    /// A buffered `base` makes a stream: keep a buffered body as it is where the layer can.
    ///
    /// ```swift
    /// let body = HTTPBody(length: 5) { HTTPBody(Data("hello".utf8)) }   // replayable
    /// let upper = HTTPBody(wrapping: body) { body.map { Data($0.map { $0 & 0xDF }) } }
    /// print(upper.isReplayable, upper.length ?? -1)   // true 5
    /// ```
    ///
    /// - Parameters:
    ///   - base: The body wrapped: its replayability and its length are kept.
    ///   - makeStream: Makes the new body's chunks.
    public init<Chunks: AsyncSequence & Sendable>(
        wrapping base: HTTPBody,
        _ makeStream: @escaping @Sendable () -> Chunks
    ) where Chunks.Element == Data {
        self.init(wrapping: base, length: base.length, makeStream)
    }

    /// A body that reads `base` through other chunks, as one kind of body as `base`, with a
    /// length of its own (a decoder's, whose bytes differ in number from the base's).
    ///
    /// - Parameters:
    ///   - base: The body wrapped: its replayability is kept.
    ///   - length: The number of bytes the new body holds, if known.
    ///   - makeStream: Makes the new body's chunks.
    public init<Chunks: AsyncSequence & Sendable>(
        wrapping base: HTTPBody,
        length: Int?,
        _ makeStream: @escaping @Sendable () -> Chunks
    ) where Chunks.Element == Data {
        storage = .stream(StreamSource(replayable: base.isReplayable) { StreamSource.erase(makeStream()) })
        self.length = length
    }

    /// Whether the body can be read more than once.
    public var isReplayable: Bool {
        switch storage {
        case .buffered: true
        case .stream(let source): source.replayable
        }
    }

    /// Whether the body is buffered bytes rather than a stream (``bufferedData`` is not `nil`),
    /// told without copying the bytes out.
    package var isBuffered: Bool {
        if case .buffered = storage { return true }
        return false
    }

    /// The bytes, if the body is buffered: no read needed.
    public var bufferedData: Data? {
        if case .buffered(let data) = storage { return data }
        return nil
    }

    /// Reads the whole body into memory, refusing more than `limit` bytes.
    ///
    /// - Parameter limit: The most bytes to keep.
    /// - Returns: The bytes.
    /// - Throws: ``HTTPBodyError/tooLarge(limit:)`` as soon as the body passes `limit` (nothing past
    ///   it is kept), ``HTTPBodyError/alreadyConsumed`` for a single-pass body already read, or
    ///   what the stream threw.
    public func collect(upTo limit: Int) async throws -> Data {
        if let length, length > limit { throw HTTPBodyError.tooLarge(limit: limit) }
        if case .buffered(let data) = storage {
            guard data.count <= limit else { throw HTTPBodyError.tooLarge(limit: limit) }
            return data
        }
        var collected = Data()
        for try await chunk in self {
            guard chunk.count <= limit - collected.count else { throw HTTPBodyError.tooLarge(limit: limit) }
            collected.append(chunk)
        }
        return collected
    }

    /// Starts a read of the body.
    public func makeAsyncIterator() -> Iterator {
        switch storage {
        case .buffered(let data): Iterator(buffered: data)
        case .stream(let source): Iterator(next: source.open())
        }
    }

    /// Reads a body chunk by chunk.
    public struct Iterator: AsyncIteratorProtocol {
        private var buffered: Data?
        private let nextChunk: (() async throws -> Data?)?

        init(buffered: Data) {
            self.buffered = buffered.isEmpty ? nil : buffered
            nextChunk = nil
        }

        init(next: @escaping () async throws -> Data?) {
            buffered = nil
            nextChunk = next
        }

        /// The next chunk, or `nil` at the end.
        public mutating func next() async throws -> Data? {
            if let data = buffered {
                buffered = nil
                return data
            }
            return try await nextChunk?()
        }
    }
}

/// Why a body could not be read.
///
/// A struct with a private code, so that a kind of failure added later breaks no `switch`:
/// compare with `==` (`error == .alreadyConsumed`) or ask ``isTooLarge``.
public struct HTTPBodyError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case tooLarge
        case alreadyConsumed
    }

    private let code: Code
    /// The limit the body was read with, when it was longer; `nil` otherwise.
    public let limit: Int?

    private init(_ code: Code, limit: Int? = nil) {
        self.code = code
        self.limit = limit
    }

    /// The body is longer than the limit it was read with.
    ///
    /// - Parameter limit: The limit.
    /// - Returns: The error.
    public static func tooLarge(limit: Int) -> HTTPBodyError {
        HTTPBodyError(.tooLarge, limit: limit)
    }

    /// The body is a single-pass stream that was already read.
    public static let alreadyConsumed = HTTPBodyError(.alreadyConsumed)

    /// Whether the body was longer than the limit it was read with, whatever the limit.
    public var isTooLarge: Bool { code == .tooLarge }

    public var description: String {
        switch code {
        case .tooLarge: "the body is longer than \(limit ?? 0) bytes"
        case .alreadyConsumed: "the body is a stream that was already read; it cannot be read again"
        }
    }
}

/// Where a streamed body's chunks come from: a maker of iterators, and for a single-pass body
/// whether its one read was taken.
@usableFromInline
final class StreamSource: Sendable {
    let replayable: Bool
    private let make: @Sendable () -> () async throws -> Data?
    private let taken = Locked(false)

    init(replayable: Bool, make: @escaping @Sendable () -> () async throws -> Data?) {
        self.replayable = replayable
        self.make = make
    }

    /// A new read: the stream's next-chunk function, or for a single-pass body read before, one
    /// that throws ``HTTPBodyError/alreadyConsumed``.
    func open() -> () async throws -> Data? {
        if !replayable {
            let first = taken.withLock { taken in
                defer { taken = true }
                return !taken
            }
            guard first else { return { throw HTTPBodyError.alreadyConsumed } }
        }
        return make()
    }

    /// Erases a stream to its next-chunk function; the iterator lives in the closure, owned by the
    /// one reader that opened it.
    static func erase<Chunks: AsyncSequence & Sendable>(_ stream: Chunks) -> () async throws -> Data?
    where Chunks.Element == Data {
        let box = IteratorBox(stream.makeAsyncIterator())
        return { try await box.next() }
    }
}

/// Holds one reader's iterator. Not `Sendable`: a read belongs to the task that started it.
private final class IteratorBox<Base: AsyncIteratorProtocol> where Base.Element == Data {
    var base: Base

    init(_ base: Base) {
        self.base = base
    }

    func next() async throws -> Data? {
        try await base.next()
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import Testing

/// Streamed bodies for the streaming tests: chunk lists, streams that fail, a lazily made gzip
/// bomb, and one call through the middleware.
enum Streamed {
    static let url = URL(string: "http://gzip.invalid/stream") ?? URL(fileURLWithPath: "/")

    /// A committed fixture from `Fixtures/` (Scripts/make-gzip-fixtures.py and
    /// Scripts/make-gzip-stream-fixtures.py: Python's gzip and zlib, GNU gzip, pigz, zopfli).
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
            "missing fixture \(name)"
        )
        return try Data(contentsOf: url)
    }

    /// `data` in chunks of `size` bytes (the last one shorter).
    static func chunks(_ data: Data, every size: Int) -> [Data] {
        stride(from: 0, to: data.count, by: size).map {
            data.subdata(in: $0..<min($0 + size, data.count))
        }
    }

    /// `data` cut at `points` (offsets, ascending).
    static func chunks(_ data: Data, cutAt points: [Int]) -> [Data] {
        var pieces: [Data] = []
        var start = 0
        for point in points where point > start && point < data.count {
            pieces.append(data.subdata(in: start..<point))
            start = point
        }
        if start < data.count { pieces.append(data.subdata(in: start..<data.count)) }
        return pieces
    }

    /// `data` in chunks of random sizes from 1 byte to `largest`, the same for the same seed.
    static func randomChunks(_ data: Data, seed: UInt64, largest: Int = 40 << 10) -> [Data] {
        var rng = SeededRandomNumberGenerator(seed: seed)
        var pieces: [Data] = []
        var start = 0
        while start < data.count {
            // A third of the cuts are tiny, so boundaries land inside headers and trailers too.
            let size = rng.next() % 3 == 0 ? Int(rng.next() % 16) + 1 : Int(rng.next() % UInt64(largest)) + 1
            let end = min(data.count, start + size)
            pieces.append(data.subdata(in: start..<end))
            start = end
        }
        return pieces
    }

    /// A response whose body streams `chunks` (single-pass unless `replayable`).
    static func response(
        _ chunks: [Data],
        fields: HTTPFields,
        status: Int = 200,
        length: Int? = nil,
        replayable: Bool = false,
        failure: (afterChunks: Int, error: StreamFailure)? = nil,
        opened: Locked<Int>? = nil
    ) -> HTTPResponse {
        let stream = ChunkStream(chunks: chunks, failure: failure, opened: opened)
        let body =
            replayable ? HTTPBody(length: length, replayable: { stream }) : HTTPBody(stream: stream, length: length)
        return HTTPResponse(status: .init(code: status), fields: fields, body: body)
    }

    /// What `GzipMiddleware(options)` hands up for `response`.
    static func send(_ response: HTTPResponse, options: GzipOptions = .default) async throws -> HTTPResponse {
        try await GzipMiddleware(options).intercept(HTTPRequest(url: url)) { _ in response }
    }

    /// Everything a body yields, each chunk's size, and the error that ended it, if any.
    struct Read {
        var data = Data()
        var chunkSizes: [Int] = []
        var error: (any Error)?

        var gzipError: GzipError? { error as? GzipError }
    }

    /// Reads `body` to its end or its error.
    static func read(_ body: HTTPBody) async -> Read {
        var read = Read()
        do {
            for try await chunk in body {
                read.data.append(chunk)
                read.chunkSizes.append(chunk.count)
            }
        } catch {
            read.error = error
        }
        return read
    }

    /// How a body ends: its bytes, or the `GzipError` it fails with.
    enum Outcome: Equatable, CustomStringConvertible {
        case body(Data)
        case failure(GzipError)
        case otherFailure(String)

        var description: String {
            switch self {
            case .body(let data): "\(data.count) bytes"
            case .failure(let error): "GzipError \(error)"
            case .otherFailure(let text): text
            }
        }
    }

    /// What the buffered path does with `data` under `fields`.
    static func bufferedOutcome(_ data: Data, fields: HTTPFields, options: GzipOptions = .default) async -> Outcome {
        do {
            let response = try await send(
                HTTPResponse(status: 200, fields: fields, body: HTTPBody(data)), options: options)
            return .body(try #require(response.body.bufferedData))
        } catch let error as GzipError {
            return .failure(error)
        } catch {
            return .otherFailure("\(error)")
        }
    }

    /// What the streaming path does with `chunks` under `fields` (no length, so never read whole
    /// first), every yielded chunk checked to be at most 120 KiB.
    static func streamedOutcome(_ chunks: [Data], fields: HTTPFields, options: GzipOptions = .default) async -> Outcome
    {
        let response: HTTPResponse
        do {
            response = try await send(Streamed.response(chunks, fields: fields), options: options)
        } catch let error as GzipError {
            return .failure(error)
        } catch {
            return .otherFailure("\(error)")
        }
        let read = await read(response.body)
        if let largest = read.chunkSizes.max(), largest > 120 << 10 {
            return .otherFailure("a chunk of \(largest) bytes")
        }
        if let error = read.gzipError { return .failure(error) }
        if let error = read.error { return .otherFailure("\(error)") }
        return .body(read.data)
    }
}

/// The error a ``ChunkStream`` fails with.
struct StreamFailure: Error, Equatable {
    let id: Int
}

/// A list of chunks streamed one by one, optionally failing after some of them, counting how
/// many times it was opened.
struct ChunkStream: AsyncSequence, Sendable {
    typealias Element = Data

    let chunks: [Data]
    let failure: (afterChunks: Int, error: StreamFailure)?
    let opened: Locked<Int>?

    func makeAsyncIterator() -> Iterator {
        opened?.withLock { $0 += 1 }
        return Iterator(chunks: chunks, failure: failure)
    }

    struct Iterator: AsyncIteratorProtocol {
        let chunks: [Data]
        let failure: (afterChunks: Int, error: StreamFailure)?
        var index = 0

        mutating func next() async throws -> Data? {
            if let failure, index == failure.afterChunks { throw failure.error }
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            return chunks[index]
        }
    }
}

/// A gzip stream of `zeros` zero bytes, compressed as it is read (never held whole): a
/// decompression bomb of about 1,000:1. Counts the compressed bytes handed out in `sent`.
struct ZeroBomb: AsyncSequence, Sendable {
    typealias Element = Data

    let zeros: Int
    let sent: Locked<Int>

    func makeAsyncIterator() -> Iterator {
        Iterator(zeros: zeros, sent: sent)
    }

    struct Iterator: AsyncIteratorProtocol {
        let writer: Writer
        let sent: Locked<Int>

        init(zeros: Int, sent: Locked<Int>) {
            writer = Writer(zeros: zeros)
            self.sent = sent
        }

        mutating func next() async throws -> Data? {
            guard let chunk = try writer.next() else { return nil }
            sent.withLock { $0 += chunk.count }
            return chunk
        }
    }

    /// Holds the deflate stream (not copyable) for the iterator.
    final class Writer {
        private var deflater: Deflater?
        private var remaining: Int
        private let block = Data(count: 1 << 20)

        init(zeros: Int) {
            remaining = zeros
        }

        func next() throws -> Data? {
            if deflater == nil {
                guard remaining > 0 else { return nil }
                deflater = try Deflater(format: .gzip)
            }
            var output = Data()
            while output.isEmpty {
                guard remaining >= 0 else { return nil }
                let count = Swift.min(remaining, block.count)
                remaining -= count
                let last = remaining == 0
                try deflater?.compress(block.prefix(count), flush: last ? .finish : .none, into: &output)
                if last { remaining = -1 }
            }
            return output
        }
    }
}

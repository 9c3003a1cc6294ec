import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@Suite struct HTTPBodyTests {
    /// Chunks of `size` bytes, `count` of them (or without end), counting how many were made.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let size: Int
        let count: Int?
        let made: Locked<Int>
        var failAfter: Int?

        struct Iterator: AsyncIteratorProtocol {
            let chunks: Chunks
            var produced = 0

            mutating func next() async throws -> Data? {
                if let count = chunks.count, produced == count { return nil }
                if let failAfter = chunks.failAfter, produced == failAfter { throw URLError(.networkConnectionLost) }
                produced += 1
                chunks.made.withLock { $0 += 1 }
                return Data(repeating: UInt8(truncatingIfNeeded: produced), count: chunks.size)
            }
        }

        func makeAsyncIterator() -> Iterator { Iterator(chunks: self) }
    }

    static func isAlreadyConsumed(_ error: any Error) -> Bool {
        (error as? HTTPBodyError) == .alreadyConsumed
    }

    @Test("A buffered body is replayable, knows its length and reads back its bytes every time")
    func bufferedBodyIsReplayable() async throws {
        let body = HTTPBody(Data("hello".utf8))
        #expect(body.isReplayable)
        #expect(body.length == 5)
        #expect(try await body.collect(upTo: 5) == Data("hello".utf8))
        #expect(try await body.collect(upTo: 100) == Data("hello".utf8))
        await #expect(throws: HTTPBodyError.tooLarge(limit: 4)) { try await body.collect(upTo: 4) }
    }

    @Test("A single-pass stream reads once; a second read throws at once instead of giving nothing")
    func singlePassStreamReadsOnce() async throws {
        let body = HTTPBody(stream: Chunks(size: 10, count: 3, made: Locked(0)), length: 30)
        #expect(!body.isReplayable)
        #expect(try await body.collect(upTo: 100).count == 30)
        await #expect(performing: { try await body.collect(upTo: 100) }, throws: Self.isAlreadyConsumed)
        var iterator = body.makeAsyncIterator()
        await #expect(performing: { _ = try await iterator.next() }, throws: Self.isAlreadyConsumed)
    }

    @Test("A replayable stream is made anew for every read")
    func replayableStreamIsMadeAnew() async throws {
        let made = Locked(0)
        let body = HTTPBody(length: 20) { Chunks(size: 10, count: 2, made: made) }
        #expect(body.isReplayable)
        #expect(try await body.collect(upTo: 100).count == 20)
        #expect(try await body.collect(upTo: 100).count == 20)
        #expect(made.value == 4)
    }

    @Test("Collecting a body without end stops at the limit with a typed error, keeping nothing past it")
    func collectStopsAtTheLimit() async throws {
        let made = Locked(0)
        let body = HTTPBody(stream: Chunks(size: 1_000, count: nil, made: made))
        await #expect(throws: HTTPBodyError.tooLarge(limit: 10_500)) { try await body.collect(upTo: 10_500) }
        #expect(made.value == 11, "read only one chunk past the limit")
    }

    @Test("A declared length past the limit fails before a byte is read")
    func declaredLengthPastTheLimitFailsFirst() async throws {
        let made = Locked(0)
        let body = HTTPBody(stream: Chunks(size: 10, count: 100, made: made), length: 1_000)
        await #expect(throws: HTTPBodyError.tooLarge(limit: 999)) { try await body.collect(upTo: 999) }
        #expect(made.value == 0)
    }

    @Test("A stream that fails mid-body hands its error to the reader")
    func midBodyFailureReachesTheReader() async throws {
        let body = HTTPBody(stream: Chunks(size: 10, count: 5, made: Locked(0), failAfter: 2))
        await #expect(throws: URLError.self) { try await body.collect(upTo: 1_000) }
    }

    @Test("Two tasks racing to read a single-pass body: exactly one gets the bytes")
    func racingReadersGetOneRead() async throws {
        let body = HTTPBody(stream: Chunks(size: 10, count: 3, made: Locked(0)))
        let results = await withTaskGroup(of: Result<Int, HTTPBodyError>.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    do { return .success(try await body.collect(upTo: 100).count) } catch let error as HTTPBodyError {
                        return .failure(error)
                    } catch { return .failure(.tooLarge(limit: -1)) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { (try? $0.get()) == 30 }.count == 1)
        #expect(results.filter { if case .failure(.alreadyConsumed) = $0 { true } else { false } }.count == 1)
    }
}

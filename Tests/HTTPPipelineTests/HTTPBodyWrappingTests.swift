import Foundation
import HTTPPipeline
import Testing

/// `HTTPBody(wrapping:)`, the one way a layer wraps a body: the wrapped body keeps the base's
/// kind (replayable or single-pass) and, unless told otherwise, its length.
@Suite struct HTTPBodyWrappingTests {
    @Test("Wrapping a replayable body gives a replayable body that reads the base afresh each time")
    func aReplayableBodyStaysReplayable() async throws {
        let reads = Locked(0)
        let base = HTTPBody(length: 5) {
            reads.withLock { $0 += 1 }
            return HTTPBody(Data("hello".utf8))
        }
        let wrapped = HTTPBody(wrapping: base) { base.map { Data($0.reversed()) } }
        #expect(wrapped.isReplayable)
        #expect(wrapped.length == 5)
        #expect(try await wrapped.collect(upTo: 100) == Data("olleh".utf8))
        #expect(try await wrapped.collect(upTo: 100) == Data("olleh".utf8))
        #expect(reads.withLock { $0 } == 2)
    }

    @Test("Wrapping a single-pass body gives a single-pass body: a second read throws, never empty bytes")
    func aSinglePassBodyStaysSinglePass() async throws {
        let base = HTTPBody(stream: [Data("ab".utf8), Data("c".utf8)].async, length: 3)
        let wrapped = HTTPBody(wrapping: base, length: nil) { base }
        #expect(!wrapped.isReplayable)
        #expect(wrapped.length == nil)
        #expect(try await wrapped.collect(upTo: 100) == Data("abc".utf8))
        await #expect(throws: HTTPBodyError.alreadyConsumed) { _ = try await wrapped.collect(upTo: 100) }
    }
}

extension Array where Element == Data {
    /// The chunks as an async sequence.
    fileprivate var async: AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in self { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}

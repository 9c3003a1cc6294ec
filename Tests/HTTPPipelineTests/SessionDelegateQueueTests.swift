import Foundation
import HTTPPipelineTesting
import Testing

@testable import HTTPPipeline
@testable import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking

/// Runs `body` on a thread of its own (not the cooperative pool, which it may block) and
/// returns what it returned.
private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// Keeps the thread busy for `microseconds` (a sleep that short oversleeps on a virtual machine).
private func busy(microseconds: UInt64) {
    let end = DispatchTime.now().uptimeNanoseconds + microseconds * 1_000
    while DispatchTime.now().uptimeNanoseconds < end {}
}

@Suite("Session delegate queue")
struct SessionDelegateQueueTests {
    @Test(
        "A producer faster than the delegate queue waits while the queue is far behind, and every operation runs in order"
    )
    func producerWaitsForTheBacklog() async {
        let queue = SessionDelegateQueue()
        let ran = Locked([Int]())
        let (largest, ranOut) = await onThread { () -> (Int, Int) in
            var largest = 0
            var ranOut = 0
            let clock = ContinuousClock()
            for index in 0..<400 {
                let start = clock.now
                queue.addOperation(
                    BlockOperation {
                        busy(microseconds: 20)
                        ran.withLock { $0.append(index) }
                    })
                // An add that took its whole 5 ms may have gone on with the queue still full.
                if clock.now - start >= .nanoseconds(Int(SessionDelegateQueue.longestWait)) { ranOut += 1 }
                largest = max(largest, queue.operationCount)
            }
            queue.waitUntilAllOperationsAreFinished()
            return (largest, ranOut)
        }
        // Without the wait the backlog reaches about 400. With it, the backlog passes the high
        // water only by one, and by one more for each add whose 5 ms ran out on a starved queue
        // thread (under the thread sanitizer with the suite running, 356 was seen once).
        #expect(queue.addsThatWaited > 0)
        #expect(largest <= SessionDelegateQueue.highWater + 1 + ranOut)
        #expect(ran.withLock { $0 } == Array(0..<400))
    }

    @Test("An operation that waits for the producer stalls each add past the high water 5 ms at most, never for good")
    func waitIsBounded() async {
        let queue = SessionDelegateQueue()
        let producerDone = DispatchSemaphore(value: 0)
        let ran = Locked(0)
        let extra = 10
        let adding = await onThread { () -> Duration in
            let clock = ContinuousClock()
            let start = clock.now
            // The first operation holds the queue until the producer has added all the others,
            // as an operation that waits for the session's work queue would.
            queue.addOperation(BlockOperation { producerDone.wait() })
            for _ in 0..<(SessionDelegateQueue.highWater + extra) {
                queue.addOperation(BlockOperation { ran.withLock { $0 += 1 } })
            }
            let adding = clock.now - start
            producerDone.signal()
            queue.waitUntilAllOperationsAreFinished()
            return adding
        }
        #expect(ran.withLock { $0 } == SessionDelegateQueue.highWater + extra)
        // The queue could not move: `extra + 1` adds found it full and each waited its 5 ms.
        #expect(queue.addsThatWaited == extra + 1)
        #expect(adding < .seconds(2))
    }

    @Test("While the transport's own operation (a cancel) holds the queue, no add waits")
    func ownOperationHoldsNoAdd() async {
        let queue = SessionDelegateQueue()
        let producerDone = DispatchSemaphore(value: 0)
        let adding = await onThread { () -> Duration in
            let clock = ContinuousClock()
            let start = clock.now
            // As the transport's cancel waits for the session's work queue: were the adds to
            // wait, each would lose its 5 ms (0.5 s here, seconds in one socket read of a
            // download).
            queue.addWithoutWaiting { producerDone.wait() }
            for _ in 0..<(SessionDelegateQueue.highWater + 100) {
                queue.addOperation(BlockOperation {})
            }
            let adding = clock.now - start
            producerDone.signal()
            queue.waitUntilAllOperationsAreFinished()
            return adding
        }
        #expect(queue.addsThatWaited == 0)
        #expect(adding < .milliseconds(400))
    }

    @Test("The transport's own operations never go through the waiting path")
    func ownOperationsDoNotWait() async {
        let queue = SessionDelegateQueue()
        let release = DispatchSemaphore(value: 0)
        await onThread {
            queue.addWithoutWaiting { release.wait() }
            for _ in 0..<(SessionDelegateQueue.highWater * 4) { queue.addWithoutWaiting {} }
            release.signal()
            queue.waitUntilAllOperationsAreFinished()
        }
        #expect(queue.operationsAdded == 0)
        #expect(queue.addsThatWaited == 0)
    }

    @Test("URLSession hands a body's chunks to the delegate through the queue's waiting path")
    func sessionUsesTheWaitingPath() async throws {
        let server = LoopbackServer()
        server.route("GET", "/body", .init(body: .repeated(Data(count: 16 << 10), count: 64)))
        try server.start()
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral)
        let response = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("body")))
        #expect(try await response.body.collect(upTo: 2 << 20).count == 1 << 20)
        // One operation a chunk at least: were FoundationNetworking to add them another way, the
        // queue would no longer hold it back.
        #expect(transport.owner.router.queue.operationsAdded >= 16)
    }
}
#endif

import Foundation
import HTTPPipelineTesting
import Testing

@testable import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking

/// Runs `body` on a thread of its own (not the cooperative pool, which it may block) and
/// returns what it returned, with the wall time it took.
private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> (T, Duration) {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            let clock = ContinuousClock()
            let start = clock.now
            let result = body()
            continuation.resume(returning: (result, clock.now - start))
        }
    }
}

@Suite("Session delegate queue")
struct SessionDelegateQueueTests {
    @Test(
        "A producer faster than the delegate queue waits while the queue is far behind, and every operation runs in order"
    )
    func producerWaitsForTheBacklog() async {
        let queue = SessionDelegateQueue()
        let ran = Locked([Int]())
        let (largest, _) = await onThread { () -> Int in
            var largest = 0
            for index in 0..<400 {
                queue.addOperation(
                    BlockOperation {
                        usleep(200)
                        ran.withLock { $0.append(index) }
                    })
                largest = max(largest, queue.operationCount)
            }
            queue.waitUntilAllOperationsAreFinished()
            return largest
        }
        // Without the wait the backlog reaches about 400 (each operation takes 200 µs). With it,
        // each add past the high water that waited its 5 ms in vain (a starved queue thread,
        // under the thread sanitizer) lets one more in: 66 was seen there, 65 otherwise.
        #expect(largest <= 2 * SessionDelegateQueue.highWater)
        #expect(ran.withLock { $0 } == Array(0..<400))
    }

    @Test("An operation that waits for the producer stalls it for a bounded time, never for good")
    func waitIsBounded() async {
        let queue = SessionDelegateQueue()
        let producerDone = DispatchSemaphore(value: 0)
        let ran = Locked(0)
        let extra = 10
        let (_, took) = await onThread {
            // The first operation holds the queue until the producer has added all the others,
            // as FoundationNetworking's `cancel()` waits for the session's work queue.
            queue.addOperation(BlockOperation { producerDone.wait() })
            for _ in 0..<(SessionDelegateQueue.highWater + extra) {
                queue.addOperation(BlockOperation { ran.withLock { $0 += 1 } })
            }
            producerDone.signal()
            queue.waitUntilAllOperationsAreFinished()
        }
        #expect(ran.withLock { $0 } == SessionDelegateQueue.highWater + extra)
        // `extra + 1` adds found the queue full and each waited at most 5 ms.
        #expect(took < .seconds(2))
    }

    @Test("The transport's own operations never wait, however far behind the queue is")
    func ownOperationsDoNotWait() async {
        let queue = SessionDelegateQueue()
        let release = DispatchSemaphore(value: 0)
        let (_, took) = await onThread {
            queue.addWithoutWaiting { release.wait() }
            for _ in 0..<(SessionDelegateQueue.highWater * 4) { queue.addWithoutWaiting {} }
            release.signal()
            queue.waitUntilAllOperationsAreFinished()
        }
        // 256 adds that each waited its 5 ms would take 1.3 s.
        #expect(took < .milliseconds(500))
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

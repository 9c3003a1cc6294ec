import Foundation
import HTTPPipeline
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A transport session's delegate queue: serial, one operation at a time, and on Linux it holds
/// FoundationNetworking's work back while it is far behind.
///
/// FoundationNetworking hands each chunk of a response body (at most 16 KiB) to the delegate as
/// one operation on this queue and never waits for it to run. Reading from loopback at memory
/// speed, the queue fell 700–1,900 operations behind: 10–27 MB of `Data` waiting outside the
/// transport's own limit (``SessionExchange/memoryLimit``), which it never sees. So on Linux, an
/// operation added while ``highWater`` or more wait keeps the thread that adds it (the session's
/// work queue, which drives libcurl) until ``lowWater`` or fewer do: meanwhile the socket is not
/// read, and the server's sending waits on TCP's flow control.
///
/// An operation that itself waits for the session's work queue would never let that thread go:
/// the transport's own cancel does (FoundationNetworking's `cancel()` runs `sync` on the work
/// queue), so while one of the transport's own operations (``addWithoutWaiting(_:)``) is queued
/// or running, no add waits. Any other such wait is cut by ``longestWait``, one add at a time.
/// The transport's own operations never wait either, so a caller's thread never waits here.
final class SessionDelegateQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: its stored properties are atomics; `OperationQueue` is safe to use from any
    // thread.

    /// Operations waiting (or running) at which an added one waits.
    static let highWater = 64
    /// Operations still waiting when an added one goes on.
    static let lowWater = 16
    /// The longest one added operation waits for the queue to catch up, in nanoseconds.
    static let longestWait: UInt64 = 5_000_000
    /// How long the waiting thread sleeps between two looks at the queue, in microseconds.
    private static let pollInterval: UInt32 = 100
    private let added = Atomic<Int>(0)
    private let waited = Atomic<Int>(0)
    /// The transport's own operations queued or running.
    private let own = Atomic<Int>(0)

    /// How many operations came through the waiting path (`addOperation(_:)`), the one
    /// FoundationNetworking uses; tests check that it does.
    var operationsAdded: Int { added.load(ordering: .relaxed) }

    /// How many adds waited for the queue to catch up.
    var addsThatWaited: Int { waited.load(ordering: .relaxed) }

    override init() {
        super.init()
        maxConcurrentOperationCount = 1
        name = "HTTPPipeline.URLSessionTransport.delegate"
    }

    #if canImport(FoundationNetworking)
    override func addOperation(_ operation: Operation) {
        added.add(1, ordering: .relaxed)
        if operationCount >= Self.highWater, own.load(ordering: .acquiring) == 0 {
            waited.add(1, ordering: .relaxed)
            let deadline = DispatchTime.now().uptimeNanoseconds + Self.longestWait
            repeat {
                usleep(Self.pollInterval)
            } while operationCount > Self.lowWater && own.load(ordering: .acquiring) == 0
                && DispatchTime.now().uptimeNanoseconds < deadline
        }
        super.addOperation(operation)
    }
    #endif

    /// Adds `block` without waiting, however far behind the queue is; while it is queued or
    /// running, no add waits.
    func addWithoutWaiting(_ block: @escaping @Sendable () -> Void) {
        own.add(1, ordering: .releasing)
        super.addOperation(
            BlockOperation { [self] in
                block()
                own.subtract(1, ordering: .releasing)
            })
    }
}

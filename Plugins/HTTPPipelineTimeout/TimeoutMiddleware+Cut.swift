import Foundation
import HTTPPipeline

extension TimeoutMiddleware {
    /// Sends `request` within `deadline` without racing it: every layer and the transport below
    /// keep a cut deadline, so one timer (a ``DeadlineCut`` in the request's deadline) ends their
    /// waits when it passes, the call unwinds, and the timeout is thrown here. A streamed body
    /// stays bound by it until read to its end.
    func cutting(
        _ request: HTTPRequest, deadline: HTTPDeadline, remaining: Duration, outer: DeadlineCut?, next: HTTPNext
    ) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let expired = HTTPTimeoutError(.total, after: deadline.limit)
        guard remaining > .zero else { throw expired }
        let cut = DeadlineCut()
        // A cut deadline outside (another layer's, perhaps on another clock) fires this one too:
        // the layers below register only here.
        outer?.onCut { [weak cut] in cut?.fire() }
        var request = request
        var deadline = deadline
        deadline.cut = cut
        request.context.deadline = deadline
        let disarm = timeline.arm(cut, after: remaining)
        var response: HTTPResponse
        do {
            response = try await next(request)
        } catch {
            disarm()
            throw cut.hasFired ? expired : error
        }
        guard response.body.bufferedData == nil else {
            disarm()
            return response
        }
        let body = response.body
        let armed = ArmedCut(cut, disarm: disarm)
        response.body = HTTPBody(wrapping: body) { CutBoundChunks(body: body, armed: armed, error: expired) }
        return response
    }
}

/// A cut's timer while something still needs it: disarmed once, when asked or when the last
/// reader of a streamed body lets it go.
final class ArmedCut: Sendable {
    let cut: DeadlineCut
    private let disarmTimer: Locked<(@Sendable () -> Void)?>

    init(_ cut: DeadlineCut, disarm: @escaping @Sendable () -> Void) {
        self.cut = cut
        disarmTimer = Locked(disarm)
    }

    func disarm() {
        let disarm = disarmTimer.withLock { disarm -> (@Sendable () -> Void)? in
            defer { disarm = nil }
            return disarm
        }
        disarm?()
    }

    deinit {
        disarm()
    }
}

/// A streamed body behind a cut deadline: its transfer is aborted by the cut, and the error
/// that ends the read then is the timeout.
struct CutBoundChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let body: HTTPBody
    let armed: ArmedCut
    let error: HTTPTimeoutError

    func makeAsyncIterator() -> Iterator {
        Iterator(base: body.makeAsyncIterator(), armed: armed, error: error)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let armed: ArmedCut
        let error: HTTPTimeoutError

        mutating func next() async throws -> Data? {
            // Bytes already queued when the deadline passed are not read after it, as the race
            // (with no time left) reads none.
            if armed.cut.hasFired { throw error }
            do {
                guard let chunk = try await base.next() else {
                    armed.disarm()
                    return nil
                }
                return chunk
            } catch {
                armed.disarm()
                throw armed.cut.hasFired ? self.error : error
            }
        }
    }
}

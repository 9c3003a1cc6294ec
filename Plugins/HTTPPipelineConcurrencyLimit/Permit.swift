import Foundation
import HTTPPipeline

/// One slot held past the response head, by a streamed response body: given back once, when the
/// body is read to its end, a read fails, or the body is dropped unread (this object's `deinit`).
final class Permit: Sendable {
    private let limiter: ConcurrencyLimiter
    private let held = Locked(true)

    init(_ limiter: ConcurrencyLimiter) {
        self.limiter = limiter
    }

    /// Gives the slot back, the first time only.
    func release() {
        let wasHeld = held.withLock { held in
            defer { held = false }
            return held
        }
        if wasHeld { limiter.release() }
    }

    deinit { release() }
}

/// A streamed body that holds its call's slot until it is read to its end.
struct PermitHeldChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let body: HTTPBody
    let permit: Permit

    func makeAsyncIterator() -> Iterator {
        Iterator(base: body.makeAsyncIterator(), permit: permit)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let permit: Permit

        mutating func next() async throws -> Data? {
            do {
                guard let chunk = try await base.next() else {
                    permit.release()
                    return nil
                }
                return chunk
            } catch {
                permit.release()
                throw error
            }
        }
    }
}

extension ConcurrencyLimiter {
    /// The response with its slot accounted for: given back now when the body is buffered, else
    /// held by the body until it is read to its end or dropped.
    func holding(_ response: HTTPResponse) -> HTTPResponse {
        guard response.body.bufferedData == nil else {
            release()
            return response
        }
        var response = response
        let chunks = PermitHeldChunks(body: response.body, permit: Permit(self))
        response.body = HTTPBody(wrapping: response.body) { chunks }
        return response
    }
}

import Foundation
import HTTPPipeline

extension GzipMiddleware {
    /// A streamed body the transport decoded (``HTTPResponseHead/decodedByTransport``): handed on
    /// under a head without the coding, its bytes counted against the limits as they are read,
    /// so a decompression bomb the transport inflates ends its read at the limit as one this
    /// layer inflates does.
    static func checkedAsDecodedBelow(_ response: HTTPResponse, decoding: ContentDecoding) -> HTTPResponse {
        let head = ContentDecoding.plainHead(response.head, size: nil)
        let body = response.body
        let counted = DecodedBelowChunks(body: body, limit: decoding.limitForDecodedBelow(response.head))
        return HTTPResponse(head: head, body: HTTPBody(wrapping: body, length: nil) { counted })
    }

    /// What to throw for `error` from below: a body the transport could not decode is this
    /// layer's ``GzipError``, so the verdict on a body is the same whichever side decoded it.
    static func mapped(_ error: any Error) -> any Error {
        guard let error = error as? HTTPTransportError, error.isContentDecodingFailed else { return error }
        return GzipError.corrupt(message: error.reason ?? "the transport could not decode the body")
    }
}

/// The chunks of a body the transport decoded, stopped at the limit.
struct DecodedBelowChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let body: HTTPBody
    let limit: OutputLimit

    func makeAsyncIterator() -> Iterator {
        Iterator(base: body.makeAsyncIterator(), limit: limit)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let limit: OutputLimit
        var count = 0

        mutating func next() async throws -> Data? {
            let chunk: Data?
            do {
                chunk = try await base.next()
            } catch {
                throw GzipMiddleware.mapped(error)
            }
            guard let chunk else { return nil }
            count += chunk.count
            if count > limit.bytes { throw GzipError.limitExceeded(limit.error) }
            return chunk
        }
    }
}

import Foundation
import HTTPPipeline

extension HTTPResponse {
    /// The whole body: a buffered one at once, a streamed one read to its end.
    func bytes() async throws -> Data {
        if let data = body.bufferedData { return data }
        return try await body.collect(upTo: Int.max)
    }
}

/// A transport that answers every request with a small buffered `200` and never reads the
/// request's body.
struct BodyIgnoringTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        HTTPResponse(status: 200, fields: [.contentType: "text/plain"], body: HTTPBody(Data("ok".utf8)))
    }
}

/// A transport that answers with what `respond` makes: a streamed body, a body that fails, a
/// transport that reads the request its own way.
struct ClosureTransport: HTTPTransport {
    let respond: @Sendable (HTTPRequest) async throws -> HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await respond(request)
    }
}

/// Chunks that count how many reads were started on them.
struct CountingChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
    typealias Element = Data
    let base: Base
    let reads: Locked<Int>

    func makeAsyncIterator() -> Base.AsyncIterator {
        reads.withLock { $0 += 1 }
        return base.makeAsyncIterator()
    }
}

import Foundation
public import HTTPPipeline

/// A middleware that changes nothing and records, in an ``OrderLog``, when it saw each request
/// and each response or error.
///
/// Put probes between the layers of a pipeline to prove their order: requests reach probes
/// outermost first, responses innermost first. A layer that calls `next` twice (a retry) makes
/// the probes inside it record two visits.
///
/// ## Ordering
/// Anywhere: a probe observes the position you put it in and nothing else.
public struct OrderProbe: HTTPMiddleware {
    /// The name the probe records and shows in a pipeline's description.
    public let name: String
    private let log: OrderLog
    private let recordsChunks: Bool

    /// Creates a probe.
    ///
    /// - Parameters:
    ///   - name: The name to record, unique within the pipeline.
    ///   - log: The log shared by every probe of the pipeline.
    ///   - recordsChunks: Whether to record each chunk of a response body as it passes the probe
    ///     on its way to the reader (``OrderLog/Phase/chunk``): shows which layers a stream goes
    ///     through, and when. The body passes unchanged, as replayable as it was; a buffered body
    ///     stays buffered and is recorded as one chunk when the response passes.
    public init(_ name: String, log: OrderLog, recordsChunks: Bool = false) {
        self.name = name
        self.log = log
        self.recordsChunks = recordsChunks
    }

    /// Records the request, passes it on unchanged, and records the response or error.
    ///
    /// - Parameters:
    ///   - request: The request, passed on unchanged.
    ///   - next: The rest of the pipeline.
    /// - Returns: What `next` returned, unchanged.
    /// - Throws: What `next` threw, unchanged.
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        log.record(layer: name, phase: .request, request: request)
        do {
            var response = try await next(request)
            log.record(layer: name, phase: .response, request: request, status: response.status.code)
            guard recordsChunks else { return response }
            let seen = ChunkRecorder(
                log: log, layer: name, request: request,
                response: (request.context.attempt, log.currentVisit(layer: name, request: request)))
            let body = response.body
            if let data = body.bufferedData {
                // A buffered body stays buffered (layers above keep their fast path): one chunk.
                if !data.isEmpty { seen.record(data) }
                return response
            }
            response.body = HTTPBody(wrapping: body) { RecordedChunks(base: body, recorder: seen) }
            return response
        } catch {
            log.record(layer: name, phase: .error, request: request)
            throw error
        }
    }
}

/// Where a probe's chunk events go.
struct ChunkRecorder: Sendable {
    let log: OrderLog
    let layer: String
    let request: HTTPRequest
    let response: (attempt: Int?, visit: Int)

    func record(_ chunk: Data) {
        log.record(layer: layer, phase: .chunk, request: request, bytes: chunk.count, of: response)
    }
}

/// A body's chunks, each recorded as it passes.
struct RecordedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let base: HTTPBody
    let recorder: ChunkRecorder

    func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), recorder: recorder)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let recorder: ChunkRecorder

        mutating func next() async throws -> Data? {
            guard let chunk = try await base.next() else { return nil }
            recorder.record(chunk)
            return chunk
        }
    }
}

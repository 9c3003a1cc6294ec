import Foundation
import HTTPPipeline
import HTTPPipelineRedaction

/// One exchange being recorded: its request as sent, its request body as the transport read it,
/// and its response as the reader read it. It writes the entry once the exchange is whole: at
/// once for a buffered response, when a streamed body ends, fails or is dropped, or when the
/// transport throws.
final class ExchangeRecording: Sendable {
    /// A body as recorded: the bytes kept, all the bytes that passed, the chunk sizes of a stream.
    struct Captured: Sendable {
        var kept: Data
        var bytes: Int
        var chunks: [Int]?

        init(_ data: Data) {
            kept = data
            bytes = data.count
        }

        init(_ seen: BodyTee.Seen, streamed: Bool) {
            kept = seen.prefix
            bytes = seen.bytes
            chunks = streamed ? seen.chunks : nil
        }
    }

    enum RequestBody: Sendable {
        case none
        case buffered(Data)
        case watched(BodyTee)
    }

    let cassette: Cassette
    let request: HTTPRequestHead
    let limit: Int
    let recorded: (@Sendable (HAR.Entry, Int) -> Void)?
    let started = Date()
    /// When its request was sent among the cassette's: where its entry goes.
    let sequence: Int
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    let requestBody = Locked(RequestBody.none)
    let waited = Locked(Duration.zero)

    init(cassette: Cassette, request: HTTPRequestHead, limit: Int, recorded: (@Sendable (HAR.Entry, Int) -> Void)?) {
        self.cassette = cassette
        self.request = request
        self.limit = limit
        self.recorded = recorded
        sequence = cassette.state.withLock { $0.takeSequence() }
        start = clock.now
    }

    /// The request body to send: a buffered one as it is, a stream watched as the transport
    /// reads it, unchanged.
    func watchRequestBody(_ body: HTTPBody) -> HTTPBody {
        if let data = body.bufferedData {
            requestBody.withLock { $0 = .buffered(data) }
            return body
        }
        let (watched, tee) = BodyTee.watching(body, keeping: limit + 1) { _, _ in }
        requestBody.withLock { $0 = .watched(tee) }
        return watched
    }

    /// The request body as the transport has read it so far.
    var sentBody: Captured? {
        switch requestBody.withLock({ $0 }) {
        case .none: nil
        case .buffered(let data): Captured(data)
        case .watched(let tee): Captured(tee.seen, streamed: false)
        }
    }

    /// Records a transport that threw: no response, the error.
    func failed(_ error: any Error) {
        let elapsed = clock.now - start
        record(
            response: HTTPResponseHead(status: 0), body: nil, error: error,
            timings: HAR.Timings(send: 0, wait: Cassette.milliseconds(elapsed), receive: 0))
    }

    /// The response to hand on: a buffered one recorded now; a streamed one watched as it is read,
    /// and recorded when its body ends.
    func responded(_ response: HTTPResponse) -> HTTPResponse {
        let waited = clock.now - start
        self.waited.withLock { $0 = waited }
        let head = response.head
        if let data = response.body.bufferedData {
            record(
                response: head, body: Captured(data), error: nil,
                timings: HAR.Timings(send: 0, wait: Cassette.milliseconds(waited), receive: 0))
            return response
        }
        var response = response
        response.body =
            BodyTee.watching(response.body, keeping: limit + 1, keepsChunks: true) {
                [self] seen, error in
                let received = clock.now - start - waited
                record(
                    response: head, body: Captured(seen, streamed: true), error: error,
                    timings: HAR.Timings(
                        send: 0, wait: Cassette.milliseconds(waited), receive: Cassette.milliseconds(received)))
            }.body
        return response
    }

    private func record(response: HTTPResponseHead, body: Captured?, error: (any Error)?, timings: HAR.Timings) {
        let (entry, index) = cassette.record(
            request, body: sentBody, response: response, body: body, error: error, limit: limit,
            sequence: sequence, started: started, timings: timings)
        recorded?(entry, index)
    }
}

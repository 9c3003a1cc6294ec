import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import Testing

/// A body the transport decoded itself (`HTTPResponseHead.decodedByTransport`, which
/// `URLSessionTransport` sets): never decoded again, its head cleaned, its size held to the
/// same limits, and the transport's own decoding failures reported as this layer's.
@Suite struct GzipDecodedBelowTests {
    static let request = Support.request()

    /// What `GzipMiddleware(options)` hands up for a response the transport marked as decoded.
    static func send(
        _ body: HTTPBody, coding: String, contentLength: Int? = nil, options: GzipOptions = .default
    ) async throws -> HTTPResponse {
        var head = HTTPResponseHead(status: 200, fields: [.contentEncoding: coding], decodedByTransport: true)
        head.fields[.contentLength] = contentLength.map(String.init)
        let marked = head
        return try await GzipMiddleware(options).intercept(request) { _ in HTTPResponse(head: marked, body: body) }
    }

    @Test(
        "A body the transport decoded is handed on as it is, under a head without the coding and with its own length, whatever the coding says",
        arguments: ["gzip", "deflate", "br", "zstd", "gzip, br", "gzip, gzip, gzip, gzip"])
    func aBodyDecodedBelowIsNeverDecodedAgain(_ coding: String) async throws {
        let sample = try Support.sample()
        let response = try await Self.send(HTTPBody(sample), coding: coding, contentLength: 491)
        #expect(try await response.body.collect(upTo: 1 << 20) == sample)
        #expect(response.fields["Content-Encoding"] == nil)
        #expect(response.fields["Content-Length"] == String(sample.count))
        #expect(!response.head.decodedByTransport)
    }

    @Test("A gzip file inside a gzip coding the transport decoded arrives as the inner gzip, not decoded twice")
    func aGzipOfAGzipDecodedBelowArrivesAsTheInnerGzip() async throws {
        let inner = try Deflater.compress(try Support.sample(), format: .gzip)
        let response = try await Self.send(HTTPBody(inner), coding: "gzip")
        #expect(try await response.body.collect(upTo: 1 << 20) == inner)
    }

    @Test("A buffered body the transport decoded past the decoded-size limit is refused with the limit")
    func aBufferedBodyDecodedBelowPastTheLimitIsRefused() async throws {
        let options = GzipOptions.default.limiting(decodedSize: 1000, expansionRatio: 100)
        await #expect(throws: GzipError.limitExceeded(.decodedSize(1000))) {
            _ = try await Self.send(HTTPBody(Data(count: 1001)), coding: "gzip", options: options)
        }
        let atLimit = try await Self.send(HTTPBody(Data(count: 1000)), coding: "gzip", options: options)
        #expect(try await atLimit.body.collect(upTo: 2000).count == 1000)
    }

    @Test(
        "A streamed bomb the transport inflates ends its read at the limit, against the encoded Content-Length when there is one, with no byte past it handed out"
    )
    func aStreamedBombDecodedBelowStopsAtTheLimit() async throws {
        let chunk = Data(count: 1 << 20)
        // 1 GiB of zeros as the transport would hand them up, never held whole.
        let bomb = AsyncStream<Data> { continuation in
            for _ in 0..<1024 { continuation.yield(chunk) }
            continuation.finish()
        }
        let response = try await Self.send(HTTPBody(stream: bomb), coding: "gzip")
        var received = 0
        let error = await #expect(throws: GzipError.self) {
            for try await piece in response.body { received += piece.count }
        }
        #expect(error == .limitExceeded(.decodedSize(GzipOptions.default.maximumDecodedSize)))
        #expect(received <= GzipOptions.default.maximumDecodedSize)
        // With the encoded size known (100 KiB), the ratio limit (100 times: 10 MiB) stops it sooner.
        let sized = AsyncStream<Data> { continuation in
            for _ in 0..<1024 { continuation.yield(chunk) }
            continuation.finish()
        }
        let ratio = try await Self.send(HTTPBody(stream: sized), coding: "gzip", contentLength: 100 << 10)
        await #expect(throws: GzipError.limitExceeded(.expansionRatio(100))) {
            for try await _ in ratio.body {}
        }
    }

    @Test("A body the transport could not decode is a GzipError, at send or mid-body")
    func aTransportsDecodingFailureIsAGzipError() async throws {
        let failure = HTTPTransportError.contentDecodingFailed(reason: "incorrect header check")
        await #expect(throws: GzipError.corrupt(message: "incorrect header check")) {
            _ = try await GzipMiddleware().intercept(Self.request) { _ in throw failure }
        }
        let cut = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data("{\"a\":".utf8))
            continuation.finish(throwing: failure)
        }
        let response = try await Self.send(HTTPBody(stream: cut), coding: "gzip")
        await #expect(throws: GzipError.corrupt(message: "incorrect header check")) {
            for try await _ in response.body {}
        }
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite("CurlTransport streaming")
struct CurlStreamingTests {
    @Test func aBodyLongerThanTheBufferingLimitStreamsWithItsLengthByteForByte() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let bytes = pattern(6 << 20)
        server.route("GET", "/big", .init(body: bytes))
        let response = try await CurlTransport(configuration: .default).send(HTTPRequest(url: server.url("big")))
        #expect(response.body.bufferedData == nil)
        #expect(response.body.length == bytes.count)
        #expect(try await response.body.collect(upTo: 8 << 20) == bytes)
    }

    @Test func aChunkedBodyDrippedSlowlyStreamsEveryChunkInOrder() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let chunks = (0..<20).map { index in Data(repeating: UInt8(index), count: 1000 + index) }
        server.route("GET", "/drip", .init(body: .chunked(chunks, every: .milliseconds(5))))
        let response = try await CurlTransport(configuration: .default).send(HTTPRequest(url: server.url("drip")))
        #expect(response.body.length == nil)
        #expect(try await response.body.collect(upTo: 1 << 20) == chunks.reduce(Data(), +))
    }

    @Test func aBodyThatNeverEndsArrivesChunkByChunkAndDroppingItClosesTheConnection() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/live", .init(body: .endless(chunk: pattern(1024), every: .milliseconds(5))))
        var response: HTTPResponse? = try await CurlTransport(configuration: .default).send(
            HTTPRequest(url: server.url("live")))
        #expect(response?.status == 200)
        #expect(response?.body.isReplayable == false)
        var received = 0
        if let body = response?.body {
            for try await chunk in body {
                received += chunk.count
                if received >= 8 * 1024 { break }
            }
        }
        #expect(received >= 8 * 1024)
        response = nil
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test func aReaderThatStopsReadingPausesTheTransferAtTheQueueLimit() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let total = 64 << 20
        server.route("GET", "/huge", .init(body: .repeated(pattern(64 << 10), count: total >> 16)))
        let received = Locked(Int64(0))
        var request = HTTPRequest(url: server.url("huge"))
        request.context.progress = { progress in received.withLock { $0 = progress.receivedBytes } }
        let response = try await CurlTransport(configuration: .default).send(request)
        // Nothing is read: the queue fills to its limit (1 MiB) and the transfer pauses there,
        // with the rest of the 64 MiB left in the server and the sockets.
        #expect(await eventually { received.withLock { $0 } >= 1 << 20 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(received.withLock { $0 } < 2 << 20)
        var count = 0
        for try await chunk in response.body { count += chunk.count }
        #expect(count == total)
    }

    @Test func aBodyCutShortThrowsAConnectionLostErrorAtTheReadThatMeetsTheCut() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/cut", .init(body: .abort(after: 600_000, of: .bytes(pattern(1 << 20)))))
        let response = try await CurlTransport(configuration: .default).send(HTTPRequest(url: server.url("cut")))
        let error = await #expect(throws: CurlTransportError.self) {
            _ = try await response.body.collect(upTo: 2 << 20)
        }
        #expect(error?.category == .connectionLost)
        #expect(error?.isTransient == true)
    }

    @Test func aShortBodyCutShortThrowsFromSend() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/cut", .init(body: .abort(after: 10, of: .bytes(pattern(1000)))))
        let error = await #expect(throws: CurlTransportError.self) {
            _ = try await CurlTransport(configuration: .default).send(HTTPRequest(url: server.url("cut")))
        }
        #expect(error?.category == .connectionLost)
    }

    @Test(arguments: [0, 5, 300_000, 4 << 20])
    func aBufferedRequestBodyGoesWithItsContentLength(size: Int) async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let bytes = pattern(size)
        _ = try await CurlTransport(configuration: .default).send(
            HTTPRequest(method: .post, url: server.url("up"), body: HTTPBody(bytes)))
        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "POST")
        #expect(recorded.header("Content-Length") == String(size))
        #expect(recorded.header("Expect") == nil)
        #expect(recorded.body == bytes)
    }

    @Test func aStreamedRequestBodyOfUnknownLengthGoesChunked() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let chunks = (0..<64).map { pattern(65_536 + $0) }
        let body = HTTPBody(
            stream: AsyncStream { continuation in
                for chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            })
        var request = HTTPRequest(method: .put, url: server.url("up"), body: body)
        request.fields["Content-Length"] = "1"
        _ = try await CurlTransport(configuration: .default).send(request)
        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "PUT")
        #expect(recorded.header("Transfer-Encoding") == "chunked")
        #expect(recorded.header("Content-Length") == nil)
        #expect(recorded.body == chunks.reduce(Data(), +))
    }

    @Test func aStreamedRequestBodyOfKnownLengthGoesWithItsContentLengthAsItsChunksArrive() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        let body = HTTPBody(stream: stream, length: 3 * 1000)
        let producer = Task {
            for index in 0..<3 {
                continuation.yield(Data(repeating: UInt8(index), count: 1000))
                try await Task.sleep(for: .milliseconds(20))
            }
            continuation.finish()
        }
        _ = try await CurlTransport(configuration: .default).send(
            HTTPRequest(method: .post, url: server.url("up"), body: body))
        try await producer.value
        let recorded = try #require(server.requests.first)
        #expect(recorded.header("Content-Length") == "3000")
        #expect(recorded.body == (0..<3).map { Data(repeating: UInt8($0), count: 1000) }.reduce(Data(), +))
    }

    @Test func aRequestBodyStreamThatThrowsEndsTheCallWithItsError() async throws {
        struct Broken: Error {}
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let body = HTTPBody(
            stream: AsyncThrowingStream<Data, any Error> { continuation in
                continuation.yield(Data(count: 100))
                continuation.finish(throwing: Broken())
            })
        await #expect(throws: Broken.self) {
            _ = try await CurlTransport(configuration: .default).send(
                HTTPRequest(method: .post, url: server.url("up"), body: body))
        }
    }

    @Test func progressIsReportedBothWays() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("POST", "/echo", .init(body: pattern(1 << 20)))
        let last = Locked(HTTPTransferProgress())
        var request = HTTPRequest(method: .post, url: server.url("echo"), body: HTTPBody(pattern(70_000)))
        request.context.progress = { progress in last.withLock { $0 = progress } }
        let response = try await CurlTransport(configuration: .default).send(request)
        _ = try await response.body.collect(upTo: 2 << 20)
        let progress = last.withLock { $0 }
        #expect(progress.sentBytes == 70_000)
        #expect(progress.expectedSentBytes == 70_000)
        #expect(progress.receivedBytes == 1 << 20)
        #expect(progress.expectedReceivedBytes == 1 << 20)
    }

    @Test func aDownloadToAFileWritesEveryByte() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        let bytes = pattern(3 << 20)
        server.route("GET", "/file", .init(body: bytes))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        let response = try await CurlTransport(configuration: .default).send(HTTPRequest(url: server.url("file")))
        #expect(try await response.body.write(to: destination) == bytes.count)
        #expect(try Data(contentsOf: destination) == bytes)
    }
}

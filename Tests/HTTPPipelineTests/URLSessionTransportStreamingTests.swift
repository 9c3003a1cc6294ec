import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Bytes that say where they are: byte `i` is `i % 251`, so a lost, doubled or moved chunk shows.
private func pattern(_ count: Int) -> Data {
    Data((0..<count).map { UInt8($0 % 251) })
}
@Suite("URLSessionTransport streaming")
struct URLSessionTransportStreamingTests {
    @Test("A reader far behind the network still gets every byte in order, past the memory limit")
    func slowReaderGetsEveryByte() async throws {
        let server = LoopbackServer()
        let bytes = pattern(24 << 20)
        server.route("GET", "/big", .init(body: bytes))
        try server.start()
        defer { server.stop() }
        let received = Locked(Int64(0))
        var request = HTTPRequest(url: server.baseURL.appendingPathComponent("big"))
        request.context.progress = { progress in received.withLock { $0 = progress.receivedBytes } }
        let response = try await URLSessionTransport().send(request)
        // Nothing is read until the whole body has arrived: all but 4 MiB of it waits on disk.
        #expect(await eventually { received.withLock { $0 } == Int64(bytes.count) })
        #expect(try await response.body.collect(upTo: 32 << 20) == bytes)
    }

    @Test("A body that never ends reaches the caller chunk by chunk, and dropping it closes the connection")
    func endlessBodyStreams() async throws {
        let server = LoopbackServer()
        server.route("GET", "/live", .init(body: .endless(chunk: pattern(1024), every: .milliseconds(5))))
        try server.start()
        defer { server.stop() }
        var response: HTTPResponse? = try await URLSessionTransport().send(
            HTTPRequest(url: server.baseURL.appendingPathComponent("live")))
        #expect(response?.status == 200)
        #expect(response?.body.bufferedData == nil)
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

    @Test("A body longer than the buffering limit streams with its length, byte for byte")
    func longBodyStreams() async throws {
        let server = LoopbackServer()
        let bytes = pattern(3 << 20)
        server.route("GET", "/big", .init(body: bytes))
        try server.start()
        defer { server.stop() }
        let response = try await URLSessionTransport().send(
            HTTPRequest(url: server.baseURL.appendingPathComponent("big")))
        #expect(response.body.bufferedData == nil)
        #expect(response.body.length == bytes.count)
        #expect(try await response.body.collect(upTo: 4 << 20) == bytes)
    }

    @Test("A small body of known length comes buffered")
    func smallBodyIsBuffered() async throws {
        let server = LoopbackServer()
        server.route("GET", "/small", .init(headers: [("Content-Type", "text/plain")], body: Data("hello".utf8)))
        try server.start()
        defer { server.stop() }
        let response = try await URLSessionTransport().send(
            HTTPRequest(url: server.baseURL.appendingPathComponent("small")))
        #expect(response.body.bufferedData == Data("hello".utf8))
        #expect(response.fields["Content-Type"] == "text/plain")
    }

    @Test("A chunked body of unknown length streams every chunk in order")
    func chunkedBodyInOrder() async throws {
        let server = LoopbackServer()
        let chunks = (0..<20).map { index in Data(repeating: UInt8(index), count: 1000 + index) }
        server.route("GET", "/events", .init(body: .chunked(chunks, every: .milliseconds(2))))
        try server.start()
        defer { server.stop() }
        let response = try await URLSessionTransport().send(
            HTTPRequest(url: server.baseURL.appendingPathComponent("events")))
        #expect(response.body.length == nil)
        #expect(try await response.body.collect(upTo: 1 << 20) == chunks.reduce(Data(), +))
    }

    @Test("Cancelling the task that reads a body stops the transfer with CancellationError")
    func cancellingTheReaderStopsTheTransfer() async throws {
        let server = LoopbackServer()
        server.route("GET", "/live", .init(body: .endless(chunk: pattern(512), every: .milliseconds(5))))
        try server.start()
        defer { server.stop() }
        let response = try await URLSessionTransport().send(
            HTTPRequest(url: server.baseURL.appendingPathComponent("live")))
        let reader = Task {
            var count = 0
            for try await chunk in response.body { count += chunk.count }
            return count
        }
        #expect(await eventually { server.openConnections == 1 })
        reader.cancel()
        await #expect(throws: CancellationError.self) { _ = try await reader.value }
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test("A body cut short throws at the read that meets the cut, not at send")
    func cutBodyThrowsWhenRead() async throws {
        let server = LoopbackServer()
        server.route("GET", "/cut", .init(body: .abort(after: 600_000, of: .bytes(pattern(1 << 20)))))
        try server.start()
        defer { server.stop() }
        let response = try await URLSessionTransport().send(
            HTTPRequest(url: server.baseURL.appendingPathComponent("cut")))
        #expect(response.status == 200)
        await #expect(throws: URLError.self) { _ = try await response.body.collect(upTo: 2 << 20) }
    }

    @Test("A streamed request body arrives whole and leaves no file behind")
    func streamedUploadArrivesWhole() async throws {
        let server = LoopbackServer()
        server.route("POST", "/upload", .init(status: 201))
        try server.start()
        defer { server.stop() }
        let bytes = pattern(300_000)
        let chunks = stride(from: 0, to: bytes.count, by: 7_000).map { bytes[$0..<min($0 + 7_000, bytes.count)] }
        let stream = AsyncStream<Data> { continuation in
            for chunk in chunks { continuation.yield(Data(chunk)) }
            continuation.finish()
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = URLSessionTransport(spoolDirectory: directory)
        let request = HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("upload"),
            body: HTTPBody(stream: stream, length: bytes.count))
        let response = try await transport.send(request)
        #expect(response.status == 201)
        #expect(server.requests.last?.body == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

        // A stream that fails while it is spooled sends nothing and leaves nothing either.
        struct Broke: Error {}
        let failing = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data(count: 10))
            continuation.finish(throwing: Broke())
        }
        let broken = HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("upload"), body: HTTPBody(stream: failing))
        await #expect(throws: Broke.self) { _ = try await transport.send(broken) }
        #expect(server.requests.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("A single-pass body already read fails at send with alreadyConsumed, and nothing is sent")
    func consumedBodyIsNotSent() async throws {
        let server = LoopbackServer()
        server.route("POST", "/upload", .init(status: 201))
        try server.start()
        defer { server.stop() }
        let body = HTTPBody(
            stream: AsyncStream<Data> {
                $0.yield(Data("once".utf8))
                $0.finish()
            })
        _ = try await body.collect(upTo: 100)
        let request = HTTPRequest(method: .post, url: server.baseURL.appendingPathComponent("upload"), body: body)
        await #expect(throws: HTTPBodyError.alreadyConsumed) { _ = try await URLSessionTransport().send(request) }
        #expect(server.requests.isEmpty)
    }

    @Test("Progress reports every byte received and sent, with the expected totals")
    func progressIsReported() async throws {
        let server = LoopbackServer()
        let download = pattern(1 << 20)
        server.route("POST", "/echo", .init(body: download))
        try server.start()
        defer { server.stop() }
        let seen = Locked([HTTPTransferProgress]())
        var request = HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("echo"), body: HTTPBody(pattern(500_000)))
        request.context.progress = { progress in seen.withLock { $0.append(progress) } }
        let response = try await URLSessionTransport().send(request)
        #expect(try await response.body.collect(upTo: 2 << 20) == download)
        let last = try #require(seen.withLock { $0.last })
        #expect(last.receivedBytes == Int64(download.count))
        #expect(last.expectedReceivedBytes == Int64(download.count))
        #expect(seen.withLock { $0.map(\.sentBytes).max() } == 500_000)
        let received = seen.withLock { $0.map(\.receivedBytes) }
        #expect(received == received.sorted())
    }

    @Test("Writing a streamed body to a file moves it into place whole; a cut one leaves nothing")
    func downloadToFile() async throws {
        let server = LoopbackServer()
        let bytes = pattern(2 << 20)
        server.route("GET", "/file", .init(body: bytes))
        server.route("GET", "/cut", .init(body: .abort(after: 1 << 20, of: .bytes(bytes))))
        try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = URLSessionTransport()

        let destination = directory.appendingPathComponent("file.bin")
        let whole = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("file")))
        #expect(try await whole.body.write(to: destination) == bytes.count)
        #expect(try Data(contentsOf: destination) == bytes)

        let cutDestination = directory.appendingPathComponent("cut.bin")
        let cut = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("cut")))
        await #expect(throws: URLError.self) { try await cut.body.write(to: cutDestination) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file.bin"])
    }

    @Test("Writing a body over an existing file replaces it whole, and a failed write leaves the old one")
    func writeReplacesAnExistingFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("data.bin")
        try Data("old".utf8).write(to: destination)

        let new = pattern(100_000)
        #expect(try await HTTPBody(new).write(to: destination) == new.count)
        #expect(try Data(contentsOf: destination) == new)

        struct Broke: Error {}
        let failing = HTTPBody(
            stream: AsyncThrowingStream<Data, any Error> { continuation in
                continuation.yield(Data("partial".utf8))
                continuation.finish(throwing: Broke())
            })
        await #expect(throws: Broke.self) { try await failing.write(to: destination) }
        #expect(try Data(contentsOf: destination) == new)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["data.bin"])
    }

    @Test("A HEAD response has an empty body, whatever Content-Length it announces")
    func headHasNoBody() async throws {
        let server = LoopbackServer()
        server.route("GET", "/big", .init(body: pattern(1 << 20)))
        try server.start()
        defer { server.stop() }
        let response = try await URLSessionTransport().send(
            HTTPRequest(method: .head, url: server.baseURL.appendingPathComponent("big")))
        #expect(response.fields["Content-Length"] == String(1 << 20))
        #expect(response.body.length == 0)
        #expect(try await response.body.collect(upTo: 0).isEmpty)
    }

    @Test("By default a 302 comes back as it is; with followsRedirects true URLSession follows it")
    func redirectsFollowedOrHandedBack() async throws {
        let server = LoopbackServer()
        server.route(
            "GET", "/old",
            .init(status: 302, headers: [("Location", "/new"), ("Set-Cookie", "a=b")], body: Data("moved".utf8)))
        server.route("GET", "/new", .init(body: Data("here".utf8)))
        try server.start()
        defer { server.stop() }
        let request = HTTPRequest(url: server.baseURL.appendingPathComponent("old"))
        let handedBack = try await URLSessionTransport(configuration: .ephemeral).send(request)
        #expect(handedBack.status == 302)
        #expect(handedBack.fields["Location"] == "/new")
        #expect(handedBack.fields["Set-Cookie"] == "a=b")
        #expect(try await handedBack.body.collect(upTo: 100) == Data("moved".utf8))
        #expect(server.requests.map(\.path) == ["/old"])

        let followed = try await URLSessionTransport(followsRedirects: true).send(request)
        #expect(followed.status == 200)
        #expect(try await followed.body.collect(upTo: 100) == Data("here".utf8))
    }

    @Test(
        "A 3xx whose Location is missing or unusable comes back as itself, its cookie kept; URLSession drops its body",
        arguments: [nil, "", "http://[bad"] as [String?], [false, true])
    func aRedirectURLSessionCannotFollowIsHandedBack(location: String?, followsRedirects: Bool) async throws {
        let server = LoopbackServer()
        var headers = [("Set-Cookie", "moved=KEPT; Path=/")]
        if let location { headers.append(("Location", location)) }
        server.route("GET", "/old", .init(status: 302, headers: headers, body: Data("moved".utf8)))
        server.route("GET", "/echo", .init(body: Data("ok".utf8)))
        try server.start()
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .always
        let transport = URLSessionTransport(
            configuration: configuration, followsRedirects: followsRedirects, handlesCookies: true)
        // FoundationNetworking ends such a task without reporting its response: it was thrown
        // away as "not an HTTP response".
        let response = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("old")))
        #expect(response.status == 302)
        #expect(response.fields["Location"] == location)
        #expect(try await response.body.collect(upTo: 100).isEmpty)
        _ = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("echo")))
        #expect(server.requests.last?.header("Cookie") == "moved=KEPT")
    }

    @Test("A redirect URLSession follows (followsRedirects true) carries the cookie its 302 set")
    func followedRedirectCarriesCookie() async throws {
        let server = LoopbackServer()
        server.route(
            "GET", "/set",
            .init(status: 302, headers: [("Location", "/echo"), ("Set-Cookie", "session=s3cret; Path=/")]))
        server.route("GET", "/echo", .init(body: Data("ok".utf8)))
        try server.start()
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral, followsRedirects: true, handlesCookies: true)
        let response = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("set")))
        #expect(response.status == 200)
        #expect(server.requests.map(\.path) == ["/set", "/echo"])
        #expect(server.requests.last?.header("Cookie") == "session=s3cret")
        // And later requests of the session carry it too, as they would through URLSession.
        _ = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("echo")))
        #expect(server.requests.last?.header("Cookie") == "session=s3cret")
    }

    @Test("A file body is replayable and uploads the file's bytes every time")
    func fileBodyReplays() async throws {
        let server = LoopbackServer()
        server.route("PUT", "/file", .init(status: 204))
        try server.start()
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        let bytes = pattern(200_000)
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let body = try HTTPBody(contentsOf: file, chunkSize: 10_000)
        #expect(body.isReplayable)
        #expect(body.length == bytes.count)
        let request = HTTPRequest(method: .put, url: server.baseURL.appendingPathComponent("file"), body: body)
        let transport = URLSessionTransport()
        _ = try await transport.send(request)
        _ = try await transport.send(request)
        #expect(server.requests.map(\.body) == [bytes, bytes])
    }
}

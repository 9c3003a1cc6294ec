import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import TestSupport
import Testing

@Suite("CurlTransport cancellation and timeouts")
struct CurlCancellationTests {
    @Test func cancellingTheCallerWhileItWaitsForTheHeadAbortsTheTransfer() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/slow", .init(body: Data("late".utf8), delay: .seconds(3_600)))
        let call = Task { try await CurlTransport().send(HTTPRequest(url: server.url("slow"))) }
        #expect(await eventually { server.openConnections == 1 })
        call.cancel()
        // Long before the server's hour-long delay is out; the server sees the connection close.
        await #expect(throws: CancellationError.self) { _ = try await call.value }
        #expect(await eventually { server.openConnections == 0 })
    }

    @Test func cancellingTheTaskReadingABodyAbortsTheTransferAndTheServerSeesTheConnectionClose() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/live", .init(body: .endless(chunk: pattern(512), every: .milliseconds(5))))
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("live")))
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

    @Test func cancellingADownloadRemovesThePartialFile() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/live", .init(body: .endless(chunk: pattern(4096), every: .milliseconds(2))))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("never.bin")
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("live")))
        let download = Task { try await response.body.write(to: destination) }
        // The partial file exists while bytes arrive.
        #expect(
            await eventually { (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.count == 1 })
        download.cancel()
        await #expect(throws: CancellationError.self) { _ = try await download.value }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        // (Whether the server sees the connection close is checked by the reading test above.
        // Here, under the whole suite's sanitizer run, a cancelled download-to-file was seen three
        // times to leave its connection open for over a minute: open on issue 18, unexplained.)
    }

    @Test func aDeadlineInTheContextEndsTheTransferWithATimeout() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/slow", .init(body: Data("late".utf8), delay: .seconds(3_600)))
        var request = HTTPRequest(url: server.url("slow"))
        request.context.deadline = HTTPDeadline(after: .milliseconds(300))
        let error = await #expect(throws: CurlTransportError.self) {
            _ = try await CurlTransport().send(request)
        }
        #expect(error?.category == .timeout)
        #expect(error?.code == 28)
        #expect(error?.isTransient == true)
    }

    @Test func theConfiguredTotalTimeoutEndsAStalledBody() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/stall", .init(body: .endless(chunk: Data(), every: .seconds(60))))
        var configuration = CurlTransport.Configuration.default
        configuration.timeout = .milliseconds(300)
        let response = try await CurlTransport(configuration: configuration).send(HTTPRequest(url: server.url("stall")))
        let error = await #expect(throws: CurlTransportError.self) {
            _ = try await response.body.collect(upTo: 1 << 20)
        }
        #expect(error?.category == .timeout)
    }
}

import Foundation
import HTTPPipelineTesting
import TestSupport
import Testing

/// Clients that would hold a connection, and its thread, forever: the server's timeouts close
/// them. The timeouts are a few hundred milliseconds here so the tests stay quick; every loop
/// against the server is bounded.
@Suite struct LoopbackServerTimeoutTests {
    static let short = LoopbackServer.Timeouts(idle: .milliseconds(300), request: .milliseconds(600))

    @Test("A connection that sends nothing is closed, without an answer, once the idle timeout passes")
    func silentConnectionIsClosed() throws {
        let server = LoopbackServer(timeouts: Self.short)
        try server.start()
        defer { server.stop() }
        let client = try LoopbackRawClient(port: server.port)

        #expect(try client.readUntilClosed().isEmpty)
    }

    @Test("A request that stops arriving halfway gets 408 Request Timeout once the idle timeout passes")
    func requestCutShortGets408() throws {
        let server = LoopbackServer(timeouts: Self.short)
        try server.start()
        defer { server.stop() }
        let client = try LoopbackRawClient(port: server.port)

        try client.send("GET / HTTP/1.1\r\nHost: x\r\n")
        let response = try client.readResponse()

        #expect(response.status == 408)
        #expect(response.header("Connection") == "close")
        #expect(try client.readUntilClosed().isEmpty)
        #expect(server.requests.isEmpty)
    }

    /// Which part of the request the client trickles.
    enum Trickled: String, CaseIterable, CustomTestStringConvertible {
        case head, body
        var testDescription: String { rawValue }
    }

    @Test(
        "A client that trickles a request a byte at a time, each in time for the idle timeout, gets 408 once the request timeout passes",
        arguments: Trickled.allCases)
    func trickledRequestGets408(_ part: Trickled) throws {
        let server = LoopbackServer(timeouts: Self.short)
        server.route("POST", "/", .init())
        try server.start()
        defer { server.stop() }
        let client = try LoopbackRawClient(port: server.port)
        switch part {
        case .head: try client.send("POST / HTTP/1.1\r\nX-Slow: ")
        case .body: try client.send("POST / HTTP/1.1\r\nContent-Length: 1000\r\n\r\n")
        }

        // One byte every 100 ms, a third of the idle timeout, for at most 3 seconds.
        var answered = false
        for _ in 0..<30 {
            answered = client.isReadable(within: .milliseconds(100))
            if answered { break }
            try client.send("a")
        }

        try #require(answered, "the server still held the connection after 3 s of a byte every 100 ms")
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(try client.readUntilClosed().isEmpty)
        #expect(server.requests.isEmpty)
    }

    @Test(
        "A client that reads none of a large response is dropped once the idle timeout passes",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task")))
    func clientThatDoesNotReadIsDropped() async throws {
        // Far more than a loopback connection buffers for a client that reads nothing (a few MiB).
        let body = Data(repeating: 0x61, count: 16 << 20)
        let server = LoopbackServer(timeouts: Self.short)
        server.route("GET", "/big", .init(body: body))
        try server.start()
        defer { server.stop() }
        let port = server.port
        let client = try LoopbackRawClient(port: port)

        try client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { server.requests.count == 1 })

        // The connection's thread ends: only the accept thread is left.
        #expect(try await eventually(within: .seconds(3)) { try serverThreadNames(port: port).count == 1 })
        let received = try client.readUntilClosed()
        #expect(received.count < body.count, "the server gave up before sending the whole body")
    }
}

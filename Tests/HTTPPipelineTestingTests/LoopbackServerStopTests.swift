import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stop()` returns promptly whatever clients do and whether or not the server's threads could
/// start. Every stop here is bounded: a hang is reported, not waited for.
@Suite struct LoopbackServerStopTests {
    @Test("stop() returns within a second while clients hold connections silent, half-sent, trickling and unread")
    func stopReturnsWhileClientsHoldConnections() async throws {
        let server = LoopbackServer()
        server.route("GET", "/big", .init(body: Data(repeating: 0x61, count: 16 << 20)))
        try server.start()
        let silent = try LoopbackRawClient(port: server.port)
        let halfSent = try LoopbackRawClient(port: server.port)
        try halfSent.send("GET / HTTP/1.1\r\nHost")
        let unread = try LoopbackRawClient(port: server.port)
        try unread.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        // Trickles a byte every 50 ms until the server closes its end (10 s at most), then
        // records whether the connection ended. A thread of its own, so tests blocking the
        // concurrency pool cannot hold it up.
        let port = server.port
        let trickled = Locked<Bool?>(nil)
        Thread {
            guard let trickling = try? LoopbackRawClient(port: port) else { return trickled.withLock { $0 = false } }
            try? trickling.send("GET / HTTP/1.1\r\nX-Slow: ")
            for _ in 0..<200 {
                guard !trickling.isReadable(within: .milliseconds(50)), (try? trickling.send("a")) != nil else { break }
            }
            let closed = (try? trickling.readUntilClosed()) != nil
            trickled.withLock { $0 = closed }
        }.start()
        #expect(await eventually { server.connectionsAccepted == 4 && server.requests.count == 1 })

        let stopped = stopReturns(server, within: .seconds(1))

        #expect(stopped, "stop() had not returned after 1 s")
        #expect(await eventually(within: .seconds(12)) { trickled.value != nil })
        #expect(trickled.value == true, "the server closed the trickling connection")
        for client in [silent, halfSent, unread] {
            #expect(throws: Never.self, "the server closed the connection") { _ = try client.readUntilClosed() }
        }
    }

    @Test("A connection whose thread cannot start is closed at once, and the server goes on serving and stops promptly")
    func connectionWithoutAThreadIsClosed() throws {
        let refusing = Locked(false)
        let server = LoopbackServer(
            threadStarter: .init { name, body in
                refusing.value ? EAGAIN : LoopbackServer.ThreadStarter.system.startThread(named: name, body)
            })
        server.route("GET", "/", .init(body: Data("ok".utf8)))
        try server.start()

        refusing.withLock { $0 = true }
        let refused = try LoopbackRawClient(port: server.port)
        try refused.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let refusedReply = Result { try refused.readUntilClosed() }
        refusing.withLock { $0 = false }
        let served = try LoopbackRawClient(port: server.port)
        try served.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let servedReply = Result { try served.readResponse() }
        let stopped = stopReturns(server, within: .seconds(1))

        #expect(throws: Never.self, "the refused connection was closed") { try refusedReply.get() }
        #expect((try? refusedReply.get()) == [], "and got no answer")
        #expect((try? servedReply.get())?.body == Array("ok".utf8), "the next connection is served")
        #expect(server.connectionsAccepted == 1, "a refused connection is not counted")
        #expect(stopped, "stop() had not returned after 1 s")
    }

    @Test("start() throws when the accept thread cannot start, leaves nothing behind and can be tried again")
    func startThrowsWhenTheAcceptThreadCannotStart() throws {
        let refusing = Locked(true)
        let server = LoopbackServer(
            threadStarter: .init { name, body in
                refusing.value ? EAGAIN : LoopbackServer.ThreadStarter.system.startThread(named: name, body)
            })
        server.route("GET", "/", .init(body: Data("ok".utf8)))

        let failure = Result { () throws(LoopbackServer.Error) in try server.start() }
        let stoppedAfterFailure = stopReturns(server, within: .seconds(1))
        refusing.withLock { $0 = false }
        let retried = Result { () throws(LoopbackServer.Error) in try server.start() }

        #expect(throws: LoopbackServer.Error.systemCallFailed(call: "pthread_create", errno: EAGAIN)) {
            try failure.get()
        }
        #expect(stoppedAfterFailure, "stop() after a failed start had not returned after 1 s")
        #expect(throws: Never.self) { try retried.get() }
        if case .success = retried {
            let client = try LoopbackRawClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().body == Array("ok".utf8))
        }
        #expect(stopReturns(server, within: .seconds(1)), "stop() had not returned after 1 s")
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import HTTPPipelineURLSession
import Testing

/// Cancellation that races the end of an exchange, over real loopback sockets.
///
/// FoundationNetworking on Linux traps ("Trying to access a behaviour for a task that in not in
/// the registry") when `URLSessionTask.cancel()` reports its failure after the task completed and
/// left the session's registry. These tests cancel at every moment of short exchanges, so a
/// cancel that lands as the task completes, or while it waits for a cache lookup, is reached.
@Suite struct URLSessionTransportCancelRaceTests {
    /// How many exchanges each test cancels: enough for the moments to cover the whole exchange
    /// (about a millisecond each on loopback), bounded to keep the test under a few seconds.
    static let exchanges = 300

    @Test func cancellingACallAtAnyMomentEndsItWithTheResponseOrCancellationAndNeverTraps() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/quick", .init(body: Data("quick".utf8)))
        let transport = URLSessionTransport()
        for index in 0..<Self.exchanges {
            let call = Task {
                try await transport.send(HTTPRequest(url: server.baseURL.appending(path: "quick"))).bytes()
            }
            // 0 to 1.5 ms: before the request leaves, while it is answered, as it completes.
            try await Task.sleep(for: .microseconds(index % 31 * 50))
            call.cancel()
            switch await call.result {
            case .success(let body):
                #expect(body == Data("quick".utf8))
            case .failure(let error):
                #expect(error is CancellationError, "\(error)")
            }
        }
    }

    @Test func droppingAStreamedBodyAtAnyMomentNeverTraps() async throws {
        let server = LoopbackServer()
        try server.start()
        defer { server.stop() }
        let body = Data(repeating: 0x61, count: 256 << 10)
        server.route("GET", "/body", .init(body: body))
        // A buffering limit below the body's length: each body streams, and is dropped unread
        // or half read, which cancels its transfer as it may be ending.
        let transport = URLSessionTransport(bufferingLimit: 1024)
        for index in 0..<Self.exchanges {
            let response = try await transport.send(HTTPRequest(url: server.baseURL.appending(path: "body")))
            #expect(response.status == 200)
            if index % 2 == 0 {
                for try await _ in response.body { break }
            }
            // The body is dropped after 0 to 0.6 ms: kept alive until then.
            try await Task.sleep(for: .microseconds(index % 17 * 40))
            withExtendedLifetime(response) {}
        }
    }
}

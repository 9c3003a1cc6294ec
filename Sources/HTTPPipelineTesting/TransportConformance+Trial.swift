import Foundation
import HTTPPipeline

extension TransportConformance {
    /// A broken check: what was observed.
    struct Broken: Error {
        let observed: String
    }

    /// One run of a check: makes its transports and servers, and stops the servers after it.
    final class Trial: Sendable {
        private let makeTransport: @Sendable () throws -> any HTTPTransport
        let promptness: Duration
        private let servers = Locked([LoopbackServer]())

        init(makeTransport: @escaping @Sendable () throws -> any HTTPTransport, promptness: Duration) {
            self.makeTransport = makeTransport
            self.promptness = promptness
        }

        /// A transport made for this check.
        func transport() throws -> any HTTPTransport {
            try makeTransport()
        }

        /// A started server with the routes `configure` sets; stopped when the check ends. It
        /// waits a minute for a silent or slow client, not the default 5 s: a transport on a
        /// loaded machine may take that long to read on.
        func server(_ configure: (LoopbackServer) -> Void = { _ in }) throws -> LoopbackServer {
            let server = LoopbackServer(timeouts: .init(idle: .seconds(60), request: .seconds(60)))
            configure(server)
            try server.start()
            servers.withLock { $0.append(server) }
            return server
        }

        func stopServers() async {
            for server in servers.withLock({ $0 }) { server.stop() }
        }
    }
}

/// Fails a check with what was observed unless `condition` holds.
func require(_ condition: Bool, _ observed: @autoclosure () -> String) throws {
    if !condition { throw TransportConformance.Broken(observed: observed()) }
}

/// The error and how it reads, failing the check with `observed` when there is none.
func classified(_ error: (any Error)?, ifNone observed: String) throws -> (any Error, HTTPFailureClass) {
    guard let error else { throw TransportConformance.Broken(observed: observed) }
    return (error, HTTPFailureClass(error))
}

extension HTTPRequest {
    /// A request for `path` (with its query, exactly as written) on `server`.
    init(
        _ method: HTTPMethod = .get, _ target: String, on server: LoopbackServer, fields: HTTPFields = HTTPFields(),
        body: HTTPBody? = nil
    ) throws {
        guard let url = URL(string: "http://127.0.0.1:\(server.port)" + target) else {
            throw TransportConformance.Broken(observed: "the check's URL \(target) is not a URL")
        }
        self.init(method: method, url: url, fields: fields, body: body)
    }
}

extension HTTPTransport {
    /// Sends `request` and reads the whole body; a thrown error says which step threw.
    func exchange(_ request: HTTPRequest, upTo limit: Int = 64 << 20) async throws -> (HTTPResponse, Data) {
        let response: HTTPResponse
        do {
            response = try await send(request)
        } catch {
            throw TransportConformance.Broken(observed: "sending \(request.method) threw \(error)")
        }
        do {
            return (response, try await response.body.collect(upTo: limit))
        } catch {
            throw TransportConformance.Broken(observed: "reading the body threw \(error)")
        }
    }

    /// What sending `request` and reading its body threw, or `nil` when both succeeded.
    func failure(of request: HTTPRequest) async -> (any Error)? {
        do {
            let response = try await send(request)
            _ = try await response.body.collect(upTo: 64 << 20)
            return nil
        } catch {
            return error
        }
    }
}

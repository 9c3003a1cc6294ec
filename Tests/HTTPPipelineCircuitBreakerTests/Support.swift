import Foundation
import HTTPPipeline
import HTTPPipelineCircuitBreaker
import HTTPPipelineTesting
import TestSupport

/// `https://<host>/<path>`.
func url(_ path: String = "books/1", host: String = "api.example.invalid") -> URL {
    URL(string: "https://\(host)/\(path)") ?? URL(fileURLWithPath: "/")
}

/// The state changes an observer received, in order.
final class ChangeLog: Sendable {
    private let changes = Locked<[CircuitStateChange]>([])

    var all: [CircuitStateChange] { changes.value }
    var transitions: [String] { all.map { "\($0.from)->\($0.to)" } }

    func record(_ change: CircuitStateChange) {
        changes.withLock { $0.append(change) }
    }
}

extension Result where Success == HTTPResponse {
    /// The breaker's rejection, if the call was turned away.
    var rejection: CircuitOpenError? {
        if case .failure(let error) = self { return error as? CircuitOpenError }
        return nil
    }
}

/// Sends one call and returns its outcome.
func call(_ transport: some HTTPTransport, _ request: HTTPRequest = HTTPRequest(url: url())) async -> Result<
    HTTPResponse, any Error
> {
    await outcome(of: transport, request)
}

import Foundation
import HTTPPipeline
import HTTPPipelineTesting

/// `https://api.example.invalid/<path>`.
func url(_ path: String) -> URL {
    URL(string: "https://api.example.invalid/\(path)") ?? URL(fileURLWithPath: "/")
}

/// A transport that holds every request until the test opens its gate, and counts how many are
/// in flight at once.
final class GatedTransport: HTTPTransport {
    private struct State {
        var arrived: [String] = []
        var held: [UnsafeContinuation<Void, Never>] = []
        var inFlight = 0
        var maximumInFlight = 0
    }

    private let state = Locked(State())

    /// The paths of the requests received, in order.
    var arrived: [String] { state.withLock { $0.arrived } }
    /// The most requests ever in flight at once.
    var maximumInFlight: Int { state.withLock { $0.maximumInFlight } }
    /// Requests waiting at the gate.
    var heldCount: Int { state.withLock { $0.held.count } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            state.withLock { state in
                state.arrived.append(request.url.lastPathComponent)
                state.inFlight += 1
                state.maximumInFlight = max(state.maximumInFlight, state.inFlight)
                state.held.append(continuation)
            }
        }
        state.withLock { $0.inFlight -= 1 }
        return HTTPResponse(status: 200)
    }

    /// Lets the oldest held request answer.
    func openNext() {
        state.withLock { $0.held.isEmpty ? nil : $0.held.removeFirst() }?.resume()
    }

    /// Lets every request held now answer; a request arriving later waits for the next call.
    func openAll() {
        for continuation in state.withLock({ state in
            defer { state.held = [] }
            return state.held
        }) {
            continuation.resume()
        }
    }
}

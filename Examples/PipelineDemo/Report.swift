import Foundation
import HTTPPipeline

/// Collects, in order, what each demo layer saw, and prints it.
final class Report: Sendable {
    enum Event {
        case request
        /// A status and the body's length: `nil` for a streamed body of unknown length, which
        /// the layers pass on without reading it.
        case response(Int, Int?)
        case failure(any Error)
    }

    private let lines = Locked<[String]>([])
    private let requestCounter = Locked(0)

    func nextRequestID() -> String {
        requestCounter.withLock { count in
            count += 1
            return "req-\(count)"
        }
    }

    func saw(_ layer: String, _ event: Event, _ request: HTTPRequest, took: Duration? = nil) {
        let what = "\(request.method.rawValue) \(request.url.path)"
        let id = request.fields["X-Request-ID"] ?? "none"
        let line: String
        switch event {
        case .request:
            line = "→ \(pad(layer)) request   \(what)   X-Request-ID: \(id)"
        case .response(let status, let bytes):
            line =
                "← \(pad(layer)) response  \(status), \(bytes.map { "\($0) bytes" } ?? "a streamed body")"
                + (took.map { "   after \(milliseconds($0))" } ?? "")
        case .failure(let error):
            line = "← \(pad(layer)) error     \(type(of: error))" + (took.map { "   after \(milliseconds($0))" } ?? "")
        }
        lines.withLock { $0.append(line) }
    }

    func flush() -> [String] {
        lines.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
    }

    private func pad(_ text: String) -> String {
        text.padding(toLength: 12, withPad: " ", startingAt: 0)
    }

    private func milliseconds(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.1f ms", ms)
    }
}

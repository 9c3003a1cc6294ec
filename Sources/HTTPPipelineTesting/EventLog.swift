public import HTTPPipeline

/// An `HTTPObserver` that keeps every event, to check in a test which events a
/// call reported and in what order.
///
/// Each event shows as one line: its kind, then `#` and the attempt's number, the status, and
/// the detail in parentheses, where the event has them (`retry.scheduled #1 503 (status 503)`).
///
/// ```swift
/// import Foundation
/// import HTTPPipeline
/// import HTTPPipelineEvents
/// import HTTPPipelineRetry
/// import HTTPPipelineTesting
/// import Testing
///
/// @Test func aRetriedCallReportsEachAttempt() async throws {
///     let events = EventLog()
///     let client = Pipeline(transport: ScriptedTransport([.status(503), .status(200)])) {
///         ObserverMiddleware.call(events)
///         RetryMiddleware(policy: .attempts(2, backoff: .immediate), clock: ManualClock())
///         ObserverMiddleware.attempt()
///     }
///     _ = try await client.send(HTTPRequest(url: URL(string: "https://api.example/a")!))
///     let mismatch = events.checkOrder([
///         "call.started",
///         "attempt.started #1", "attempt.finished #1 503", "retry.scheduled #1 503 (status 503)",
///         "attempt.started #2", "attempt.finished #2 200",
///         "call.finished 200",
///     ])
///     #expect(mismatch == nil, "\(mismatch?.description ?? "")")
/// }
/// ```
public final class EventLog: HTTPObserver, CustomStringConvertible {
    private let storage = Locked<[HTTPEvent]>([])

    /// An empty log.
    public init() {}

    public func observe(_ event: HTTPEvent) {
        storage.withLock { $0.append(event) }
    }

    /// Every event so far, oldest first.
    public var events: [HTTPEvent] {
        storage.withLock { $0 }
    }

    /// Every event's line, oldest first; only `call`'s when given.
    ///
    /// - Parameter call: The call whose events to show, or `nil` for all.
    public func lines(of call: HTTPCallID? = nil) -> [String] {
        events.filter { call == nil || $0.call == call }.map(Self.line)
    }

    /// Compares the events' lines (only `call`'s when given) with `expected`.
    ///
    /// - Parameters:
    ///   - expected: The lines, oldest first.
    ///   - call: The call whose events to compare, or `nil` for all.
    /// - Returns: `nil` when they agree, else the two side by side.
    public func checkOrder(_ expected: [String], of call: HTTPCallID? = nil) -> OrderMismatch? {
        OrderMismatch("event order", expected: expected, actual: lines(of: call))
    }

    /// Forgets every event.
    public func reset() {
        storage.withLock { $0.removeAll() }
    }

    /// The lines, one per line.
    public var description: String {
        lines().joined(separator: "\n")
    }

    /// One event as a line.
    static func line(_ event: HTTPEvent) -> String {
        var line = event.kind.name
        if let attempt = event.attempt { line += " #\(attempt)" }
        if let status = event.status { line += " \(status.code)" }
        if let detail = event.detail { line += " (\(detail))" }
        return line
    }
}

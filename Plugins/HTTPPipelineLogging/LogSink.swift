import Foundation
import HTTPPipeline

/// Where log records go: the one thing to implement to send the logging middleware's output to
/// your logging system.
///
/// Implementations must be `Sendable` (one sink serves concurrent requests) and should return
/// quickly. A sink that throws loses that record and nothing else: the request is never failed by
/// its log.
public protocol HTTPLogSink: Sendable {
    /// Writes one record.
    ///
    /// - Parameter record: The exchange, already redacted.
    /// - Throws: Anything; the middleware drops the record and carries on.
    func write(_ record: HTTPLogRecord) throws
}

/// A sink made of a closure.
///
/// ```swift
/// let sink = ClosureLogSink { record in myLogger.info("\(record.summary)") }
/// ```
public struct ClosureLogSink: HTTPLogSink {
    private let body: @Sendable (HTTPLogRecord) throws -> Void

    /// Creates a sink that calls `body` with each record.
    ///
    /// - Parameter body: Called with each record, on the task of the request being logged.
    public init(_ body: @escaping @Sendable (HTTPLogRecord) throws -> Void) {
        self.body = body
    }

    /// Calls the closure.
    ///
    /// - Parameter record: The record.
    /// - Throws: What the closure throws.
    public func write(_ record: HTTPLogRecord) throws {
        try body(record)
    }
}

/// Writes each record's ``HTTPLogRecord/formatted`` text to standard error, whole records at a
/// time (concurrent records never interleave).
public struct StandardErrorLogSink: HTTPLogSink {
    private static let output = Locked(())

    /// Creates the sink.
    public init() {}

    /// Writes the formatted record and a newline to standard error.
    ///
    /// - Parameter record: The record.
    public func write(_ record: HTTPLogRecord) {
        let text = Data((record.formatted + "\n").utf8)
        Self.output.withLock { _ in FileHandle.standardError.write(text) }
    }
}

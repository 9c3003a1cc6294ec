#if canImport(os)
public import os

/// Writes each record to the unified logging system through an `os.Logger` (Apple platforms).
///
/// Records are already redacted, so their text is logged as public; failures log at error level.
public struct OSLogSink: HTTPLogSink {
    private let logger: Logger

    /// Creates the sink.
    ///
    /// - Parameter logger: The logger to write to.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Logs the formatted record.
    ///
    /// - Parameter record: The record.
    public func write(_ record: HTTPLogRecord) {
        let text = record.formatted
        switch record.outcome {
        case .response(let status) where status < 500:
            logger.info("\(text, privacy: .public)")
        default:
            logger.error("\(text, privacy: .public)")
        }
    }
}
#endif

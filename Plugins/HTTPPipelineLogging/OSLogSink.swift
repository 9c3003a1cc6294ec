#if canImport(os)
public import os

/// Writes each record to the unified logging system through an `os.Logger`, with privacy-aware
/// interpolation (Apple platforms).
///
/// ``LoggingMiddleware`` has already redacted the record; this sink adds the unified logging
/// system's own protection on top. The parts that describe the exchange (method, status or
/// failure kind, byte counts, duration, attempt) are logged as public. The parts that carry
/// user data are private by default: the URL, whose path and query can still name a person after
/// redaction, is logged with a hash mask, so equal URLs can be matched in a log without being
/// readable; header values, bodies and error descriptions are private. Private values show as
/// `<private>` in logs collected from a device, and in full while a debugger is attached.
///
/// ```swift
/// import os
///
/// let sink = OSLogSink(logger: Logger(subsystem: "com.example.shelf", category: "http"))
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     LoggingMiddleware(level: .headers, sink: sink)
/// }
/// ```
///
/// Responses below 500 log at the info level; 5xx responses and failures at the error level.
public struct OSLogSink: HTTPLogSink {
    /// How the parts of a record that carry user data are logged.
    public enum Detail: Sendable {
        /// URL hashed, headers, bodies and errors private: the default.
        case `private`
        /// Everything public: only for development builds, where the record's redaction is the
        /// only protection.
        case `public`
    }

    private let logger: Logger
    private let detail: Detail

    /// Creates the sink.
    ///
    /// - Parameters:
    ///   - logger: The logger to write to.
    ///   - detail: How the URL, headers, bodies and errors are logged; private by default.
    public init(logger: Logger, detail: Detail = .private) {
        self.logger = logger
        self.detail = detail
    }

    /// Logs the record: its method and outcome in public, its URL and details as `detail` says.
    ///
    /// - Parameter record: The record, already redacted.
    public func write(_ record: HTTPLogRecord) {
        let level: OSLogType
        switch record.outcome {
        case .response(let status) where status < 500: level = .info
        default: level = .error
        }
        let method = record.method
        let url = record.url
        let outcome = record.outcomeSummary
        let details = record.detailLines.joined(separator: "\n")
        switch detail {
        case .private where details.isEmpty:
            logger.log(
                level: level,
                "\(method, privacy: .public) \(url, privacy: .private(mask: .hash)) -> \(outcome, privacy: .public)"
            )
        case .private:
            logger.log(
                level: level,
                """
                \(method, privacy: .public) \(url, privacy: .private(mask: .hash)) -> \(outcome, privacy: .public)
                \(details, privacy: .private)
                """
            )
        case .public:
            logger.log(level: level, "\(record.formatted, privacy: .public)")
        }
    }
}
#endif

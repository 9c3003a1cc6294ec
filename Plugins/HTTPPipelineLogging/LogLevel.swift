/// How much the logging middleware records for each exchange.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Nothing: requests pass straight through and no record is made.
    case none
    /// One line: method, redacted URL, status or error kind, byte counts, duration, attempt.
    case basic
    /// The line, plus request and response headers (secrets redacted) and the redacted error
    /// description.
    case headers
    /// All of that, plus request and response bodies: JSON and form fields with secret names
    /// redacted, binary bodies summarised, long bodies truncated.
    case body

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

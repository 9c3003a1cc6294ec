public import Foundation
import HTTPPipeline

/// A parsed `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
public enum RetryAfter: Sendable, Equatable {
    /// Wait this long (a date in the past becomes zero).
    case delay(Duration)
    /// The server asked for a wait too long to represent (a huge number of seconds, or a date
    /// far in the future): treat it as "not soon".
    case tooLong

    /// The largest wait this parser represents; anything longer is ``tooLong``.
    package static let limit: Int64 = 10 * 365 * 86_400

    /// Parses a header value, or returns `nil` for garbage (which falls back to the backoff).
    ///
    /// - Parameters:
    ///   - value: The header's value.
    ///   - reference: The time a date is measured against: the response's `Date`, or now.
    public init?(_ value: String, relativeTo reference: Date) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Digits only: a non-negative number of seconds, however many digits.
            guard trimmed.utf8.count <= 18, let seconds = Int64(trimmed), seconds <= Self.limit else {
                self = .tooLong
                return
            }
            self = .delay(.seconds(seconds))
            return
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let seconds = date.timeIntervalSince(reference)
        guard seconds.isFinite else { return nil }
        guard seconds <= Double(Self.limit) else {
            self = .tooLong
            return
        }
        self = .delay(.milliseconds(Int64(max(seconds, 0) * 1_000)))
    }
}

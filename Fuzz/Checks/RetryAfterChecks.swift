import Foundation
import HTTPPipeline
import HTTPPipelineRetry

/// The `Retry-After` parser on arbitrary bytes: up to the first line feed, the header's value;
/// after it, a `Date` header's value. Invariants:
/// - it never crashes, and it is deterministic;
/// - a delay is never negative and never longer than the parser's limit (longer is `tooLong`);
/// - whether the value parses does not depend on the time it is measured against;
/// - measured against a later time, a delay is never longer;
/// - through `RetryPolicy.retryAfter(_:now:)` (the `Date` header as the reference), the same bounds.
enum RetryAfterChecks {
    static let reference = Date(timeIntervalSince1970: 1_700_000_000)
    static let later = Date(timeIntervalSince1970: 1_700_003_600.25)
    static let longest = Duration.seconds(RetryAfter.limit)

    static func violations(_ input: UnsafeRawBufferPointer) -> [String] {
        let newline = input.firstIndex(of: 0x0A)
        let value = String(decoding: input[..<(newline ?? input.count)], as: UTF8.self)
        let date = newline.map { String(decoding: input[($0 + 1)...], as: UTF8.self) }
        var broken: [String] = []
        let references = [reference, later, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -62e9)]
        let parsed = references.map { RetryAfter(value, relativeTo: $0) }
        for (result, at) in zip(parsed, references) {
            broken += bounds(result).map { "\($0) at \(at.timeIntervalSince1970)" }
            if RetryAfter(value, relativeTo: at) != result {
                broken.append("two parses differ at \(at.timeIntervalSince1970)")
            }
        }
        if Set(parsed.map { $0 == nil }).count > 1 {
            broken.append("parses at some references but not others: \(parsed)")
        }
        if let early = parsed[0], let late = parsed[1], wait(late) > wait(early) {
            broken.append("a later reference gave a longer wait: \(late) after \(early)")
        }
        broken += throughPolicy(value: value, date: date)
        return broken
    }

    /// A delay within zero and the limit.
    static func bounds(_ result: RetryAfter?) -> [String] {
        guard case .delay(let delay) = result else { return [] }
        if delay < .zero { return ["negative delay \(delay)"] }
        if delay > longest { return ["delay \(delay) past the limit"] }
        return []
    }

    /// The wait to compare: `tooLong` is longer than any delay.
    static func wait(_ result: RetryAfter) -> Duration {
        switch result {
        case .delay(let delay): delay
        case .tooLong: longest + .seconds(1)
        }
    }

    /// The policy's reading of a 503 with these headers.
    static func throughPolicy(value: String, date: String?) -> [String] {
        var fields: HTTPFields = [.retryAfter: value]
        fields["Date"] = date
        let result = RetryPolicy.default.retryAfter(HTTPResponseHead(status: 503, fields: fields), now: reference)
        return bounds(result).map { "through the policy: \($0)" }
    }
}

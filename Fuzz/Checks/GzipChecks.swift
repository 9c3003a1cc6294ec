import Foundation
import HTTPPipelineZlib

/// The gzip and deflate decoder on arbitrary bytes.
///
/// Each input is read as gzip and as deflate, strictly under a small and a larger limit, and
/// leniently (a body that is not encoded taken as plain). Invariants:
/// - it returns data or throws a `GzipError` (the typed `throws` makes that static), never crashes;
/// - a result never has more bytes than the limit, and the buffer never more than the limit + 1;
/// - strict decoding never reports a plain body; a limit is reported as the one configured;
/// - the outcome under the smaller limit is the one under the larger limit, or the limit error;
/// - lenient decoding differs from strict only by taking a failure as plain, as documented;
/// - the decoded bytes, or the failure, are what zlib makes of the same bytes when it does all
///   the framing itself (``ZlibOracle``).
enum GzipChecks {
    static let small = OutputLimit(bytes: 4 << 10, error: .decodedSize(4 << 10))
    static let large = OutputLimit(bytes: 256 << 10, error: .expansionRatio(64))

    /// One decoding: what it returned or threw, and the most memory its buffer held.
    struct Attempt {
        let result: Result<GzipDecoder.Outcome, GzipError>
        let peakCapacity: Int

        var isLimit: Bool {
            if case .failure(let error) = result { return error.limit != nil }
            return false
        }

        var decoded: Data? {
            if case .success(.decoded(let data)) = result { return data }
            return nil
        }
    }

    static func attempt(
        _ data: Data,
        as coding: GzipDecoder.Coding,
        limit: OutputLimit,
        plainBody: GzipDecoder.PlainBody
    ) -> Attempt {
        var statistics = DecodeStatistics()
        let result: Result<GzipDecoder.Outcome, GzipError>
        do throws(GzipError) {
            result = .success(
                try GzipDecoder.decode(data, as: coding, limit: limit, plainBody: plainBody, statistics: &statistics))
        } catch {
            result = .failure(error)
        }
        return Attempt(result: result, peakCapacity: statistics.peakCapacity)
    }

    static func violations(_ input: UnsafeRawBufferPointer) -> [String] {
        let data = Data(input)
        var broken: [String] = []
        for coding in [GzipDecoder.Coding.gzip, .deflate] {
            let label = coding == .gzip ? "gzip" : "deflate"
            let strictSmall = attempt(data, as: coding, limit: small, plainBody: .never)
            let strictLarge = attempt(data, as: coding, limit: large, plainBody: .never)
            let lenientMode: GzipDecoder.PlainBody = coding == .gzip ? .whenUnrecognised : .whenUndecodable
            let lenient = attempt(data, as: coding, limit: small, plainBody: lenientMode)
            for (attempt, limit, name) in [
                (strictSmall, small, "strict, small limit"), (strictLarge, large, "strict, large limit"),
                (lenient, small, "lenient"),
            ] {
                broken += bounds(attempt, limit: limit).map { "\(label), \(name): \($0)" }
            }
            for attempt in [strictSmall, strictLarge] {
                if case .success(.plain) = attempt.result { broken.append("\(label): strict decoding returned plain") }
            }
            broken += limitMonotonicity(strictSmall, strictLarge).map { "\(label): \($0)" }
            broken += leniency(strictSmall, lenient, coding: coding, input: input).map { "\(label): \($0)" }
            broken += oracle(strictLarge, coding: coding, input: input).map { "\(label): \($0)" }
        }
        return broken
    }

    /// The output and the buffer stay within the limit; a limit error names the limit configured.
    static func bounds(_ attempt: Attempt, limit: OutputLimit) -> [String] {
        var broken: [String] = []
        if let body = attempt.decoded, body.count > limit.bytes {
            broken.append("decoded \(body.count) bytes past the limit of \(limit.bytes)")
        }
        if attempt.peakCapacity > limit.bytes + 1 {
            broken.append("buffer grew to \(attempt.peakCapacity) bytes past the limit of \(limit.bytes)")
        }
        if case .failure(let error) = attempt.result, let reported = error.limit, reported != limit.error {
            broken.append("reported the limit \(reported) instead of \(limit.error)")
        }
        return broken
    }

    /// Lowering the limit changes nothing but turning a result past it into the limit error.
    static func limitMonotonicity(_ small: Attempt, _ large: Attempt) -> [String] {
        if small.isLimit {
            // Fine whatever the larger limit gave, except a body the smaller limit would hold.
            if let body = large.decoded, body.count <= Self.small.bytes {
                return ["the small limit was reported for a body of \(body.count) bytes"]
            }
            return []
        }
        if large.isLimit { return ["the large limit was passed but not the small one: \(small.result)"] }
        if let body = large.decoded, body.count > Self.small.bytes {
            return ["\(body.count) bytes decoded under the small limit of \(Self.small.bytes)"]
        }
        return small.result == large.result ? [] : ["small limit gave \(small.result), large gave \(large.result)"]
    }

    /// Lenient decoding gives the strict result, except that a failure (not a limit) is plain:
    /// for gzip only when the body lacks the magic bytes, for deflate always.
    static func leniency(
        _ strict: Attempt,
        _ lenient: Attempt,
        coding: GzipDecoder.Coding,
        input: UnsafeRawBufferPointer
    ) -> [String] {
        guard case .failure(let error) = strict.result, !strict.isLimit else {
            return strict.result == lenient.result ? [] : ["lenient gave \(lenient.result), strict \(strict.result)"]
        }
        let unrecognised = !(input.count >= 2 && input[0] == 0x1f && input[1] == 0x8b)
        let plain = coding == .deflate || unrecognised
        let expected: Result<GzipDecoder.Outcome, GzipError> = plain ? .success(.plain) : .failure(error)
        return lenient.result == expected ? [] : ["lenient gave \(lenient.result), expected \(expected)"]
    }

    /// The decoder agrees with zlib doing its own framing.
    static func oracle(_ attempt: Attempt, coding: GzipDecoder.Coding, input: UnsafeRawBufferPointer) -> [String] {
        let expected =
            coding == .gzip
            ? ZlibOracle.gzip(input, room: large.bytes) : ZlibOracle.deflate(input, room: large.bytes)
        switch expected {
        case .none:
            return attempt.isLimit ? [] : ["zlib passes the limit, the decoder gave \(attempt.result)"]
        case .some(.none):
            if case .failure = attempt.result, !attempt.isLimit { return [] }
            return ["zlib fails, the decoder gave \(attempt.result)"]
        case .some(.some(let bytes)):
            guard let body = attempt.decoded else {
                return ["zlib decodes \(bytes.count) bytes, the decoder gave \(attempt.result)"]
            }
            return body.elementsEqual(bytes)
                ? [] : ["decoded \(body.count) bytes that differ from zlib's \(bytes.count)"]
        }
    }
}

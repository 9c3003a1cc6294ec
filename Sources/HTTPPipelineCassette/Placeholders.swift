import Foundation

/// The numbered placeholders of one cassette: the same secret gets the same `<redacted-N>`
/// wherever it appears in the file, a new secret the next number.
///
/// The secrets themselves stay in memory, as keys of this table; only placeholders are written.
struct Placeholders: Sendable {
    /// The number of each secret seen.
    private var numbers: [String: Int] = [:]
    /// The highest number given, or found in the entries the cassette was loaded with.
    private var highest: Int

    /// A table whose first new secret gets `highest + 1`: a cassette loaded from a file numbers
    /// the secrets it records next after the file's own, so that one number never stands for two
    /// secrets within the file.
    init(after highest: Int = 0) {
        self.highest = highest
    }

    /// The placeholder of a secret: `<redacted-1>` for the first one seen, and so on.
    mutating func placeholder(for secret: String) -> String {
        if let number = numbers[secret] { return Self.placeholder(number) }
        highest += 1
        numbers[secret] = highest
        return Self.placeholder(highest)
    }

    static func placeholder(_ number: Int) -> String {
        "<redacted-\(number)>"
    }

    /// `redacted` (the engine's output for `original`, with `Redaction.mark` where a secret was)
    /// with each mark replaced by its secret's placeholder.
    ///
    /// The secret under each mark is found by aligning the text around the marks with
    /// `original`. Where that fails (the engine changed more than the secret, as when a JSON value
    /// that is an object becomes one string), each mark gets a placeholder of its own, keyed by
    /// the whole original value and the mark's position: still consistent for a value repeated
    /// whole. Nothing of `original` is ever copied into the result.
    mutating func substitute(original: String, redacted: String, mark: String) -> String {
        guard Self.mayHold(mark, redacted) else { return redacted }
        let segments = Self.segments(of: redacted, mark: mark)
        guard segments.count > 1 else { return redacted }
        let secrets =
            Self.align(Array(original.utf8), segments)
            ?? (1..<segments.count).map { "\u{0}\(original)\u{0}\($0)" }
        var result = String(decoding: segments[0], as: UTF8.self)
        for (index, secret) in secrets.enumerated() {
            result += placeholder(for: secret)
            result += String(decoding: segments[index + 1], as: UTF8.self)
        }
        return result
    }

    /// The secrets `redacted` (the engine's output for `original`) hides, in order: none without
    /// a mark, `nil` where the text around the marks does not align with `original`.
    static func secrets(original: String, redacted: String, mark: String) -> [String]? {
        guard mayHold(mark, redacted) else { return [] }
        let segments = segments(of: redacted, mark: mark)
        guard segments.count > 1 else { return [] }
        return align(Array(original.utf8), segments)
    }

    /// The numbers of the placeholders in `text`, in order: `[2, 1]` for
    /// `Bearer <redacted-2>, <redacted-1>`.
    static func numbers(in text: String) -> [Int] {
        occurrences(in: text).compactMap(\.number)
    }

    /// Each `<redacted-N>` in `text`, in order: where it stands, and its number (`nil` for one
    /// too long for an `Int`).
    static func occurrences(in text: String) -> [(range: Range<String.Index>, number: Int?)] {
        var found: [(range: Range<String.Index>, number: Int?)] = []
        var rest = Substring(text)
        while let range = rest.range(of: "<redacted-") {
            let after = rest[range.upperBound...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, after.dropFirst(digits.count).first == ">" {
                let end = after.index(after: digits.endIndex)
                found.append((range.lowerBound..<end, Int(digits)))
                rest = after[end...]
            } else {
                rest = after
            }
        }
        return found
    }

    /// Whether `text` may hold `mark`: it holds the mark's first byte.
    // Most values hold no secret, and this check copies nothing (splitting them into segments
    // did, for every recorded exchange).
    static func mayHold(_ mark: String, _ text: String) -> Bool {
        guard let first = mark.utf8.first else { return false }
        return text.utf8.withContiguousStorageIfAvailable { $0.contains(first) } ?? text.utf8.contains(first)
    }

    /// The text between the marks of `redacted`: one more segment than marks.
    static func segments(of redacted: String, mark: String) -> [[UInt8]] {
        let bytes = Array(redacted.utf8)
        let markBytes = Array(mark.utf8)
        var segments: [[UInt8]] = []
        var start = 0
        while let found = firstIndex(of: markBytes, in: bytes, from: start), !markBytes.isEmpty {
            segments.append(Array(bytes[start..<found]))
            start = found + markBytes.count
        }
        segments.append(Array(bytes[start...]))
        return segments
    }

    /// The text under each mark, when `original` is the segments with one non-empty text
    /// between each two; `nil` otherwise.
    static func align(_ original: [UInt8], _ segments: [[UInt8]]) -> [String]? {
        guard let first = segments.first, original.starts(with: first) else { return nil }
        var position = first.count
        var secrets: [String] = []
        for index in segments.indices.dropFirst() {
            let segment = segments[index]
            let end: Int
            if index == segments.count - 1 {
                end = original.count - segment.count
                guard end > position, original[end...].elementsEqual(segment) else { return nil }
            } else {
                guard let found = firstIndex(of: segment, in: original, from: position + 1) else { return nil }
                end = found
            }
            secrets.append(String(decoding: original[position..<end], as: UTF8.self))
            position = end + segment.count
        }
        return secrets
    }

    /// Where `needle` first occurs in `haystack` at or after `start`.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start <= haystack.count ? start : nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// `text` with every `<redacted-N>` written as the plain mark: what a live request redacted
    /// by the engine is compared with, since a placeholder stands for whatever secret was there.
    static func normalized(_ text: String, mark: String) -> String {
        guard mayHold("<", text) else { return text }
        let found = occurrences(in: text)
        guard !found.isEmpty else { return text }
        var result = ""
        var start = text.startIndex
        for (range, _) in found {
            result += text[start..<range.lowerBound]
            result += mark
            start = range.upperBound
        }
        return result + text[start...]
    }
}

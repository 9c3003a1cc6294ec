/// The path of an ``Endpoint``, relative to the client's base URL.
///
/// Write it as a string literal. Literal text is the path's structure: `/` separates segments
/// and a leading `/` is optional. Every *interpolated* value is exactly one segment, whatever it
/// contains, so an identifier with `/`, `?`, `#`, `%`, spaces or any Unicode cannot change the
/// path's shape:
///
/// ```swift
/// let id = "a/b?c"
/// let path: EndpointPath = "/books/\(id)/reviews"   // segments: books, a%2Fb%3Fc, reviews
/// ```
///
/// A path is checked when a request is built from it, and rejected with
/// ``APIError/invalidRequest(reason:)`` if it is empty, an absolute URL (`https://host/x`) or a
/// network-path reference (`//host/x`), contains a `.` or `..` segment, an empty segment in the
/// middle, an empty interpolated value, or a `?` or `#` in its literal text (query items belong in
/// ``Endpoint/query``). A trailing `/` is kept.
public struct EndpointPath: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// One piece of the path as it was written.
    enum Piece: Sendable, Hashable {
        /// Literal text: `/` separates segments.
        case literal(String)
        /// An interpolated value: always part of one segment.
        case value(String)
    }

    var pieces: [Piece]

    /// Creates a path from a literal, in which `/` separates segments.
    ///
    /// - Parameter value: The path, for example `"/books"`.
    public init(stringLiteral value: String) {
        self.pieces = [.literal(value)]
    }

    /// Creates a path from an interpolated literal; each interpolated value is one segment.
    ///
    /// - Parameter stringInterpolation: The literal text and values, in order.
    public init(stringInterpolation: StringInterpolation) {
        self.pieces = stringInterpolation.pieces
    }

    /// Creates a path from a string computed at run time, in which `/` separates segments.
    ///
    /// - Parameter path: The path, for example `"/books/1"`.
    public init(_ path: String) {
        self.pieces = [.literal(path)]
    }

    /// Creates a path from its segments; each one is encoded as exactly one segment.
    ///
    /// - Parameter segments: The unencoded segments, for example `["books", "a/b"]`.
    public init(segments: [String]) {
        self.pieces = segments.flatMap { [Piece.literal("/"), Piece.value($0)] }
    }

    /// The path as written, unencoded; interpolated values appear as they are.
    public var description: String {
        pieces.map(\.text).joined()
    }

    /// Collects the literal text and interpolated values of an ``EndpointPath`` literal.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var pieces: [Piece] = []

        /// Creates an empty interpolation.
        ///
        /// - Parameters:
        ///   - literalCapacity: The combined length of the literal parts.
        ///   - interpolationCount: The number of interpolated values.
        public init(literalCapacity: Int, interpolationCount: Int) {
            pieces.reserveCapacity(interpolationCount * 2 + 1)
        }

        /// Appends literal text, in which `/` separates segments.
        ///
        /// - Parameter literal: The text.
        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty {
                pieces.append(.literal(literal))
            }
        }

        /// Appends a value that stays inside one segment, whatever characters it contains.
        ///
        /// - Parameter value: The value; its `description` is encoded.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            pieces.append(.value(value.description))
        }
    }

    /// The percent-encoded segments, checked. A trailing `/` shows as a last, empty segment.
    ///
    /// Reasons never quote the path: it may carry identifiers the caller considers private.
    func encodedSegments() throws(APIError) -> [String] {
        let raw = description
        guard !raw.isEmpty else {
            throw .invalidRequest(reason: "the endpoint path is empty")
        }
        if raw.hasPrefix("//") {
            throw .invalidRequest(reason: "the endpoint path is a network-path reference (//host), not a path")
        }
        if Self.startsWithScheme(raw) {
            throw .invalidRequest(reason: "the endpoint path is an absolute URL, not a path")
        }

        var segments: [(raw: String, encoded: String)] = [("", "")]
        for piece in pieces {
            switch piece {
            case .literal(let text):
                if text.contains("?") || text.contains("#") {
                    throw .invalidRequest(
                        reason: "the endpoint path contains '?' or '#'; pass query items in the endpoint's query"
                    )
                }
                for (index, part) in text.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
                    if index > 0 {
                        segments.append(("", ""))
                    }
                    segments[segments.count - 1].raw += part
                    segments[segments.count - 1].encoded += PercentEncoding.encode(String(part))
                }
            case .value(let value):
                guard !value.isEmpty else {
                    throw .invalidRequest(reason: "an interpolated path segment is empty")
                }
                segments[segments.count - 1].raw += value
                segments[segments.count - 1].encoded += PercentEncoding.encode(value)
            }
        }
        if segments.count > 1, segments[0].raw.isEmpty {
            segments.removeFirst()
        }
        for (index, segment) in segments.enumerated() {
            if segment.raw == "." || segment.raw == ".." {
                throw .invalidRequest(reason: "the endpoint path contains a '.' or '..' segment")
            }
            if segment.raw.isEmpty, index < segments.count - 1 {
                throw .invalidRequest(reason: "the endpoint path contains an empty segment")
            }
        }
        return segments.map(\.encoded)
    }

    /// Whether `text` begins with `scheme://`, as an absolute URL does.
    private static func startsWithScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        let isSchemeLike = scheme.allSatisfy { character in
            character.isASCII && (character.isLetter || character.isNumber || "+-.".contains(character))
        }
        return isSchemeLike && text[text.index(after: colon)...].hasPrefix("//")
    }
}

extension EndpointPath.Piece {
    var text: String {
        switch self {
        case .literal(let text), .value(let text): text
        }
    }
}

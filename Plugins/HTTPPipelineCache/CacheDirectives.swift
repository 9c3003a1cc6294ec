import Foundation
import HTTPPipeline

/// The `Cache-Control` directives of a request or a response (RFC 9111 §5.2), read from every
/// `Cache-Control` field line as one list.
///
/// Names are case-insensitive; an argument may be a token or a quoted string. A delta-seconds
/// argument larger than 2³¹ is 2³¹ (§1.2.2). A `max-age` or `s-maxage` that is not a number, or
/// that appears twice with different values, makes the response stale (§4.2.1: invalid freshness
/// information means stale); other directives take their first occurrence. Unknown directives
/// are ignored (§5.2.3).
struct CacheDirectives: Sendable, Equatable {
    /// `max-stale` on a request: any staleness, or at most this many seconds.
    enum MaxStale: Sendable, Equatable {
        case any
        case seconds(Int)
    }

    var maxAge: Int?
    var sharedMaxAge: Int?
    var noCache = false
    /// The field names of a qualified `no-cache="…"`, lowercased.
    var noCacheFields: [String] = []
    var noStore = false
    var isPrivate = false
    /// The field names of a qualified `private="…"`, lowercased.
    var privateFields: [String] = []
    var isPublic = false
    var mustRevalidate = false
    var proxyRevalidate = false
    var mustUnderstand = false
    var immutable = false
    var staleWhileRevalidate: Int?
    var staleIfError: Int?
    var maxStale: MaxStale?
    var minFresh: Int?
    var onlyIfCached = false
    /// Whether any `Cache-Control` field was present.
    var isPresent = false

    /// The largest delta-seconds value kept (§1.2.2).
    static let deltaCeiling = 2_147_483_648

    init() {}

    /// Reads every `Cache-Control` line of `fields`.
    init(_ fields: HTTPFields) {
        let lines = fields[values: .cacheControl]
        guard !lines.isEmpty else { return }
        isPresent = true
        var seen: Set<String> = []
        for line in lines {
            for (name, argument) in Self.directives(in: line) {
                apply(name, argument, first: seen.insert(name).inserted)
            }
        }
    }

    private mutating func apply(_ name: String, _ argument: String?, first: Bool) {
        switch name {
        case "max-age":
            maxAge = Self.freshness(argument, previous: maxAge, first: first)
        case "s-maxage":
            sharedMaxAge = Self.freshness(argument, previous: sharedMaxAge, first: first)
        case "no-cache":
            if let argument {
                noCacheFields += Self.fieldNames(argument)
            } else {
                noCache = true
            }
        case "private":
            if let argument {
                privateFields += Self.fieldNames(argument)
            } else {
                isPrivate = true
            }
        case "no-store": noStore = true
        case "public": isPublic = true
        case "must-revalidate": mustRevalidate = true
        case "proxy-revalidate": proxyRevalidate = true
        case "must-understand": mustUnderstand = true
        case "immutable": immutable = true
        case "only-if-cached": onlyIfCached = true
        case "stale-while-revalidate":
            if first { staleWhileRevalidate = argument.flatMap(Self.deltaSeconds) }
        case "stale-if-error":
            if first { staleIfError = argument.flatMap(Self.deltaSeconds) }
        case "min-fresh":
            if first { minFresh = argument.flatMap(Self.deltaSeconds) }
        case "max-stale":
            guard first else { return }
            if let argument {
                // An invalid argument accepts no staleness rather than any.
                maxStale = .seconds(Self.deltaSeconds(argument) ?? 0)
            } else {
                maxStale = .any
            }
        default:
            break
        }
    }

    /// A `max-age` or `s-maxage`: its value, or 0 (stale) when it is invalid or contradicts an
    /// earlier one.
    private static func freshness(_ argument: String?, previous: Int?, first: Bool) -> Int {
        guard let value = argument.flatMap(deltaSeconds) else { return 0 }
        if !first, let previous, previous != value { return 0 }
        return first ? value : (previous ?? value)
    }

    /// Delta-seconds (§1.2.2): one or more digits, capped at 2³¹; `nil` for anything else.
    static func deltaSeconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = 0
        for byte in text.utf8 {
            value = value * 10 + Int(byte - 0x30)
            if value >= deltaCeiling { return deltaCeiling }
        }
        return value
    }

    /// The field names of a qualified directive's argument, lowercased.
    private static func fieldNames(_ argument: String) -> [String] {
        argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter {
            !$0.isEmpty
        }
    }

    /// The `name[=argument]` items of a `Cache-Control` line, split at commas outside quoted
    /// strings; names lowercased, quoted arguments unescaped.
    static func directives(in line: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var scalars = Substring(line).unicodeScalars[...]
        while !scalars.isEmpty {
            // One item up to a comma outside quotes.
            var name = ""
            var argument: String?
            var inName = true
            var quoted = false
            var escaped = false
            var sawQuote = false
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                if quoted {
                    if escaped {
                        argument?.unicodeScalars.append(scalar)
                        escaped = false
                    } else if scalar == "\\" {
                        escaped = true
                    } else if scalar == "\"" {
                        quoted = false
                    } else {
                        argument?.unicodeScalars.append(scalar)
                    }
                    continue
                }
                if scalar == "," { break }
                if inName {
                    if scalar == "=" {
                        inName = false
                        argument = ""
                    } else {
                        name.unicodeScalars.append(scalar)
                    }
                } else if scalar == "\"", argument?.isEmpty == true, !sawQuote {
                    quoted = true
                    sawQuote = true
                } else {
                    argument?.unicodeScalars.append(scalar)
                }
            }
            let trimmedName = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard !trimmedName.isEmpty else { continue }
            // `token "=" argument` has no whitespace around the `=` (RFC 9111 §5.2): `max-age =60`
            // and `max-age= 60` are not a max-age.
            if let argument, !sawQuote,
                name.unicodeScalars.last.map(CharacterSet.whitespaces.contains) == true
                    || argument.unicodeScalars.first.map(CharacterSet.whitespaces.contains) == true
            {
                continue
            }
            if sawQuote, name.unicodeScalars.last.map(CharacterSet.whitespaces.contains) == true { continue }
            result.append((trimmedName, sawQuote ? argument : argument?.trimmingCharacters(in: .whitespaces)))
        }
        return result
    }
}

import Foundation

/// A `Set-Cookie` value parsed as RFC 6265bis §5.6 says: the name, the value, and the attributes
/// the jar recognises, in order (the last of a kind wins when the cookie is stored, §5.7).
struct SetCookie: Sendable {
    enum Attribute: Sendable, Equatable {
        /// `Expires`, parsed and capped at the age limit.
        case expires(Date)
        /// `Max-Age`, as an expiry: the earliest date for zero or less, capped at the age limit.
        case maxAge(Date)
        /// `Domain`, without one leading dot, lowercased; possibly empty.
        case domain(String)
        /// `Path`: the value, or the default path when it is empty or does not start with `/`.
        case path(String)
        case secure
        case httpOnly
        case sameSite(Cookie.SameSite)
    }

    let name: String
    let value: String
    let attributes: [Attribute]

    /// The most octets of name and value together (§5.6 step 5).
    static let nameValueLimit = 4096
    /// The most octets of one attribute value (§5.6, attribute step 6).
    static let attributeValueLimit = 1024

    /// The earliest date the jar represents: an expiry at it means "already expired".
    static let earliest = Date(timeIntervalSince1970: 0)

    /// Parses `text`, received from `url` at `now` with `ageLimit` as the longest lifetime; `nil`
    /// (with why) when the whole value is ignored.
    static func parse(_ text: String, defaultPath: String, now: Date, ageLimit: TimeInterval) -> Result<
        SetCookie, CookieRefusal
    > {
        let bytes = Array(text.utf8)
        // Step 1: a control character other than HTAB anywhere ignores the whole value.
        if bytes.contains(where: { ($0 <= 0x08) || (0x0A...0x1F).contains($0) || $0 == 0x7F }) {
            return .failure(.controlCharacter)
        }
        let semicolon = bytes.firstIndex(of: UInt8(ascii: ";"))
        let pair = bytes[..<(semicolon ?? bytes.endIndex)]
        var name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
            name = pair[..<equals]
            value = pair[(equals + 1)...]
        } else {
            name = []
            value = pair
        }
        name = trimmed(name)
        value = trimmed(value)
        guard name.count + value.count <= nameValueLimit else { return .failure(.tooLarge) }
        var attributes: [Attribute] = []
        var rest = semicolon.map { bytes[($0 + 1)...] } ?? []
        while !rest.isEmpty || semicolon != nil {
            let end = rest.firstIndex(of: UInt8(ascii: ";"))
            let av = rest[..<(end ?? rest.endIndex)]
            if let end { rest = rest[(end + 1)...] } else { rest = [] }
            var attributeName: ArraySlice<UInt8>
            var attributeValue: ArraySlice<UInt8>
            if let equals = av.firstIndex(of: UInt8(ascii: "=")) {
                attributeName = av[..<equals]
                attributeValue = av[(equals + 1)...]
            } else {
                attributeName = av
                attributeValue = []
            }
            attributeName = trimmed(attributeName)
            attributeValue = trimmed(attributeValue)
            if attributeValue.count <= attributeValueLimit,
                let attribute = attribute(
                    name: String(decoding: attributeName, as: UTF8.self).lowercased(),
                    value: String(decoding: attributeValue, as: UTF8.self), defaultPath: defaultPath, now: now,
                    ageLimit: ageLimit)
            {
                attributes.append(attribute)
            }
            if end == nil { break }
        }
        return .success(
            SetCookie(
                name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self),
                attributes: attributes))
    }

    /// One attribute (§5.6.1 to §5.6.7); `nil` for one ignored or unknown.
    static func attribute(name: String, value: String, defaultPath: String, now: Date, ageLimit: TimeInterval)
        -> Attribute?
    {
        switch name {
        case "expires":
            guard let expiry = CookieDate.parse(value) else { return nil }
            return .expires(min(expiry, now.addingTimeInterval(ageLimit)))
        case "max-age":
            let bytes = Array(value.utf8)
            guard let first = bytes.first else { return nil }
            let digits = first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes[...]
            guard let leading = digits.first, CookieDate.isDigit(leading), digits.allSatisfy(CookieDate.isDigit) else {
                return nil
            }
            // Long digit strings are past any limit: clamp rather than overflow (leading zeros
            // count for nothing).
            let significant = digits.drop { $0 == UInt8(ascii: "0") }
            let magnitude =
                significant.count > 15
                ? Double.greatestFiniteMagnitude : Double(String(decoding: significant, as: UTF8.self)) ?? 0
            let seconds = min(first == UInt8(ascii: "-") ? -magnitude : magnitude, ageLimit)
            return .maxAge(seconds <= 0 ? earliest : now.addingTimeInterval(seconds))
        case "domain":
            var domain = Substring(value)
            if domain.first == "." { domain = domain.dropFirst() }
            return .domain(asciiLowercased(String(domain)))
        case "path":
            return .path(value.utf8.first == UInt8(ascii: "/") ? value : defaultPath)
        case "secure":
            return .secure
        case "httponly":
            return .httpOnly
        case "samesite":
            return .sameSite(Cookie.SameSite(attributeValue: value))
        default:
            return nil
        }
    }

    /// Without leading and trailing SP and HTAB.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return bytes
    }

    /// Whether `text`'s bytes begin with `prefix`'s, ASCII letters in any case (names are octets,
    /// not characters: a combining mark after the prefix does not hide it).
    static func hasPrefixIgnoringASCIICase(_ text: String, _ prefix: String) -> Bool {
        let bytes = text.utf8
        let wanted = prefix.utf8
        guard bytes.count >= wanted.count else { return false }
        return zip(bytes, wanted).allSatisfy { a, b in
            (0x41...0x5A).contains(a) ? a + 0x20 == b : a == b
        }
    }

    /// ASCII letters lowercased, other bytes kept.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

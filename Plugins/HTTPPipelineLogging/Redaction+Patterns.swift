/// The built-in secret names and the name normalisation shared by every redaction rule.
enum RedactionNames {
    /// Header names that are secret whatever the options.
    static let exactHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// A header name containing any of these is secret.
    static let headerFragments: [String] = [
        "token", "secret", "key", "password", "passwd", "session", "signature", "credential", "auth",
    ]

    /// Query item and body field names that are secret whatever the options.
    ///
    /// The brief's list, plus the secret header names (`authorization`, `proxy-authorization`,
    /// `cookie`, `set-cookie`) and `cookies`, which carry credentials wherever they appear: echo
    /// services and debug endpoints return them as JSON keys (httpbin's `/cookies` answers
    /// `{"cookies": {"sid": "…"}}`, its `/response-headers` `{"Set-Cookie": "…"}`).
    static let exactFields: Set<String> = [
        "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "key",
        "client_secret", "password", "code", "signature", "sig", "x-amz-signature",
        "x-amz-credential", "x-amz-security-token", "auth", "session", "authorization",
        "proxy-authorization", "cookie", "cookies", "set-cookie",
    ]

    /// A query item or body field name containing any of these is secret.
    ///
    /// The brief's list, plus `passwd`, `api-key` and `private_key`, common spellings the list
    /// would otherwise let through.
    static let fieldFragments: [String] = [
        "token", "secret", "password", "signature", "credential", "session", "apikey", "api_key",
        "passwd", "api-key", "private_key",
    ]

    /// Foundation's error user-info keys whose values are URLs: shown in free text, because the
    /// URL after them is redacted by the URL rules, and it is what makes an error useful.
    /// (`…URLKey` would otherwise count as secret, as it contains `key`.)
    static let textExemptNames: Set<String> = [
        "nserrorfailingurlkey", "nserrorfailingurlstringkey", "nsurlerrorfailingurlerrorkey",
        "nsurlerrorfailingurlstringerrorkey", "_kcfstreamerrorcodekey", "_kcfstreamerrordomainkey",
    ]

    /// A user-supplied name as stored in the options: trimmed and lowercased.
    static func normalized(_ name: String) -> String {
        normalized(Array(name.utf8)[...])
    }

    /// Name bytes as compared: without leading and trailing whitespace and control bytes, and
    /// lowercased.
    static func normalized(_ bytes: ArraySlice<UInt8>) -> String {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isIgnorableEdge(bytes[start]) { start += 1 }
        while end > start, isIgnorableEdge(bytes[end - 1]) { end -= 1 }
        let trimmed = bytes[start..<end]
        if trimmed.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: trimmed.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return String(decoding: trimmed, as: UTF8.self).lowercased()
    }

    /// Whitespace and control bytes, which a server may or may not strip from a name.
    static func isIgnorableEdge(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F
    }

    /// Whether a normalised header name is secret under the built-in rules.
    static func isBuiltInSecretHeader(_ normalized: String) -> Bool {
        exactHeaders.contains(normalized) || contains(normalized, anyOf: headerFragmentBytes)
    }

    /// Whether a normalised field name is secret under the built-in query/body rules.
    ///
    /// Besides the whole name, the parts of a bracketed name (`user[password]`, `key[]`) are
    /// checked against the exact list.
    static func isBuiltInSecretField(_ normalized: String) -> Bool {
        if contains(normalized, anyOf: fieldFragmentBytes) { return true }
        return anyPart(of: normalized, in: exactFields)
    }

    /// Whether any of a name's parts (the whole name, the base before `[`, each bracketed part)
    /// is in `set`.
    static func anyPart(of normalized: String, in set: Set<String>) -> Bool {
        guard !set.isEmpty else { return false }
        if set.contains(normalized) { return true }
        guard normalized.utf8.contains(ASCII.leftBracket) else { return false }
        return normalized.utf8.split(whereSeparator: { $0 == ASCII.leftBracket || $0 == ASCII.rightBracket })
            .contains { set.contains(Self.normalized(Array($0)[...])) }
    }

    static let headerFragmentBytes = headerFragments.map { Array($0.utf8) }
    static let fieldFragmentBytes = fieldFragments.map { Array($0.utf8) }

    /// Whether `name` contains any of the fragments (plain byte search: names are short).
    static func contains(_ name: String, anyOf fragments: [[UInt8]]) -> Bool {
        var name = name
        return name.withUTF8 { haystack in
            fragments.contains { needle in
                guard needle.count <= haystack.count, let first = needle.first else { return false }
                var start = 0
                while start + needle.count <= haystack.count {
                    if haystack[start] == first, haystack[start..<start + needle.count].elementsEqual(needle) {
                        return true
                    }
                    start += 1
                }
                return false
            }
        }
    }

    /// Decodes a percent-encoded name until it stops changing (at most four rounds) and
    /// normalises it.
    ///
    /// - Parameters:
    ///   - bytes: The name as it appears on the wire.
    ///   - plusIsSpace: Whether `+` means a space (form encoding).
    /// - Returns: The normalised name, and whether decoding settled; a name that would still
    ///   change after four rounds is not settled, and callers treat it as secret.
    static func decodedName(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> (name: String, settled: Bool) {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return (normalized(bytes), true)
        }
        let (decoded, settled) = PercentDecoding.decodeRepeatedly(bytes, plusIsSpace: plusIsSpace)
        return (normalized(decoded[...]), settled)
    }
}

extension Redaction {
    /// Whether a decoded, normalised query item name is secret in a URL.
    func isSecretQueryName(_ normalized: String) -> Bool {
        if RedactionNames.anyPart(of: normalized, in: allowedQueryItems) { return false }
        return RedactionNames.anyPart(of: normalized, in: extraQueryItems)
            || RedactionNames.isBuiltInSecretField(normalized)
    }

    /// Whether a decoded, normalised JSON or form field name is secret in a body.
    func isSecretBodyField(_ normalized: String) -> Bool {
        RedactionNames.isBuiltInSecretField(normalized)
            || RedactionNames.anyPart(of: normalized, in: extraBodyFields)
            || RedactionNames.anyPart(of: normalized, in: extraQueryItems)
    }

    /// Whether a normalised header name is secret under these options.
    func isSecretHeader(normalized: String) -> Bool {
        if allowedHeaders.contains(normalized) { return false }
        return extraHeaders.contains(normalized) || RedactionNames.isBuiltInSecretHeader(normalized)
    }

    /// Whether a name found in free text (`name=value`, `"name": value`, `name: value`) is
    /// secret: under the body-field rules or the header rules.
    func isSecretTextName(_ normalized: String) -> Bool {
        if RedactionNames.textExemptNames.contains(normalized) { return false }
        return isSecretBodyField(normalized) || isSecretHeader(normalized: normalized)
    }
}

/// Percent-decoding that never fails: a `%` not followed by two hex digits stays as it is.
enum PercentDecoding {
    /// Decodes one round.
    ///
    /// - Parameters:
    ///   - bytes: Percent-encoded bytes.
    ///   - plusIsSpace: Whether `+` decodes to a space.
    /// - Returns: The decoded bytes (possibly not UTF-8).
    static func decodeOnce(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), bytes.endIndex - index >= 3,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return out
    }

    /// Decodes until the bytes stop changing, at most four rounds.
    ///
    /// - Parameters:
    ///   - bytes: Percent-encoded bytes.
    ///   - plusIsSpace: Whether `+` decodes to a space (first round only: a decoded `+` is data).
    /// - Returns: The decoded bytes and whether they settled within four rounds.
    static func decodeRepeatedly(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> ([UInt8], settled: Bool) {
        var current = Array(bytes)
        guard current.contains(UInt8(ascii: "%")) || (plusIsSpace && current.contains(UInt8(ascii: "+"))) else {
            return (current, true)
        }
        for round in 0..<4 {
            let next = decodeOnce(current[...], plusIsSpace: plusIsSpace && round == 0)
            if next == current { return (current, true) }
            current = next
        }
        return (current, decodeOnce(current[...], plusIsSpace: false) == current)
    }

    /// The value of an ASCII hex digit.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Name normalisation and decoding shared by every redaction rule; the built-in secret names are
/// judged by their words (``RedactionLexicon``).
enum RedactionNames {
    /// Foundation's error user-info keys whose values are URLs: shown in free text, because the
    /// URL after them is redacted by the URL rules, and it is what makes an error useful.
    /// (`…URLKey` would otherwise count as secret, as it contains `key`.)
    static let textExemptNames: Set<String> = [
        "nserrorfailingurlkey", "nserrorfailingurlstringkey", "nsurlerrorfailingurlerrorkey",
        "nsurlerrorfailingurlstringerrorkey", "_kcfstreamerrorcodekey", "_kcfstreamerrordomainkey",
    ]

    /// A user-supplied name as stored in the options: trimmed and lowercased.
    static func normalized(_ name: String) -> String {
        normalized(ASCII.bytes(of: name)[...])
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

    /// Whether a name (decoded, in its original case) is secret under the built-in words.
    static func isBuiltInSecret(_ name: ArraySlice<UInt8>) -> Bool {
        name.withUnsafeBufferPointer(RedactionLexicon.isSecret)
    }

    /// Whether a name is secret under the built-in words.
    static func isBuiltInSecret(_ name: String) -> Bool {
        judge(name).isSecret
    }

    /// What a name says under the built-in words.
    static func judge(_ name: String) -> RedactionLexicon.Verdict {
        var name = name
        return name.withUTF8(RedactionLexicon.judge)
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

    /// Decodes a percent-encoded name until it stops changing (at most four rounds).
    ///
    /// - Parameters:
    ///   - bytes: The name as it appears on the wire.
    ///   - plusIsSpace: Whether `+` means a space (form encoding).
    /// - Returns: The decoded name, in its original case, and whether decoding settled; a name
    ///   that would still change after four rounds is not settled, and callers treat it as secret.
    static func decodedName(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> (name: ArraySlice<UInt8>, settled: Bool) {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return (bytes, true)
        }
        let (decoded, settled) = PercentDecoding.decodeRepeatedly(bytes, plusIsSpace: plusIsSpace)
        return (decoded[...], settled)
    }
}

extension Redaction {
    /// Whether a decoded query item name is secret in a URL.
    func isSecretQueryName(_ name: ArraySlice<UInt8>) -> Bool {
        if box.hasQueryNames {
            let normalized = RedactionNames.normalized(name)
            if RedactionNames.anyPart(of: normalized, in: allowedQueryItems) { return false }
            if RedactionNames.anyPart(of: normalized, in: extraQueryItems) { return true }
        }
        return RedactionNames.isBuiltInSecret(name)
    }

    /// Whether a decoded JSON or form field name is secret in a body.
    func isSecretBodyField(_ name: ArraySlice<UInt8>) -> Bool {
        guard box.hasBodyNames else { return RedactionNames.isBuiltInSecret(name) }
        let normalized = RedactionNames.normalized(name)
        if allowedBodyFields.contains(normalized) { return false }
        if RedactionNames.isBuiltInSecret(name) { return true }
        return RedactionNames.anyPart(of: normalized, in: extraBodyFields)
            || RedactionNames.anyPart(of: normalized, in: extraQueryItems)
    }

    /// What a header name says under these options: whether it is secret, and whether it names
    /// an identifier.
    func judgeHeader(_ name: String) -> RedactionLexicon.Verdict {
        var verdict = RedactionNames.judge(name)
        if box.hasHeaderNames {
            let normalized = RedactionNames.normalized(name)
            if allowedHeaders.contains(normalized) {
                verdict.isSecret = false
            } else if extraHeaders.contains(normalized) {
                verdict.isSecret = true
            }
        }
        return verdict
    }

    /// Whether a header name is secret under these options.
    func isSecretHeaderName(_ name: String) -> Bool {
        if box.hasHeaderNames {
            let normalized = RedactionNames.normalized(name)
            if allowedHeaders.contains(normalized) { return false }
            if extraHeaders.contains(normalized) { return true }
        }
        return RedactionNames.isBuiltInSecret(name)
    }

    /// Whether a name found in free text (`name=value`, `"name": value`, `name: value`) is
    /// secret: under the built-in words, or added as a body field, query item or header name.
    func isSecretTextName(_ name: ArraySlice<UInt8>) -> Bool {
        if RedactionNames.isBuiltInSecret(name) {
            return !RedactionNames.textExemptNames.contains(RedactionNames.normalized(name))
        }
        guard box.hasBodyNames || box.hasHeaderNames else { return false }
        let normalized = RedactionNames.normalized(name)
        return RedactionNames.anyPart(of: normalized, in: extraBodyFields)
            || RedactionNames.anyPart(of: normalized, in: extraQueryItems) || extraHeaders.contains(normalized)
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

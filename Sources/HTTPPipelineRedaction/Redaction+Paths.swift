/// Which path segments of a URL are secrets of their own, judged one after another.
///
/// A segment is hidden whole when:
/// - it holds a shaped secret (``SecretShapes``: a Telegram bot token in `/bot123:AA…/`, a JWT, a
///   random-looking token);
/// - it comes after a segment that announces secrets (`reset`, `invite`, `verify`, `webhooks`,
///   `token`, `keys`, …; see ``RedactionLexicon/secretPathWords``) and is token-like: at least eight
///   characters with a digit or with both cases (`/password/reset/Xk2…`, `/invite/4f1c…`,
///   `/api/webhooks/1234…/tok…`); a plain word (`/reset/confirm`) stays;
/// - the host only serves secret URLs: every segment after the first on a `hooks.` host (Slack's
///   `hooks.slack.com/services/T…/B…/…`, Zapier's), and every segment on `*.webhook.office.com`.
struct PathSecrets {
    /// Whether every segment after the first is hidden.
    let hidesAllButFirst: Bool
    /// Whether every segment is hidden.
    let hidesAll: Bool
    /// Whether a segment announcing secrets was seen.
    var inSecretContext = false
    /// How many non-empty segments were seen.
    var segments = 0

    init(host: ArraySlice<UInt8>) {
        let lowered = host.lazy.map { RedactionLexicon.lowercase($0) }
        hidesAllButFirst = lowered.starts(with: "hooks.".utf8)
        hidesAll = host.count > 19 && lowered.suffix(19).elementsEqual(".webhook.office.com".utf8)
    }

    /// Whether a path segment (as encoded) is to be hidden; updates the context.
    mutating func hides(_ segment: ArraySlice<UInt8>, redaction: Redaction) -> Bool {
        guard !segment.isEmpty else { return false }
        segments += 1
        if hidesAll || (hidesAllButFirst && segments > 1) { return true }
        // Path parameters (`;jsessionid=…`) are judged by name, as query items are; the rest is
        // judged decoded. Most segments need neither step.
        let needsWork = segment.contains { $0 == ASCII.semicolon || $0 == UInt8(ascii: "%") }
        let decoded = needsWork ? Self.decodedBare(segment) : segment
        if inSecretContext, Self.isTokenLike(decoded) { return true }
        if decoded.count >= min(SecretShapes.shortestShape, redaction.shortestTokenRule),
            redaction.hasShapedSecret(decoded, entropy: true)
        {
            return true
        }
        if !inSecretContext, decoded.count >= 3, decoded.withUnsafeBufferPointer(RedactionLexicon.announcesSecret) {
            inSecretContext = true
        }
        return false
    }

    /// A segment without its path parameters, percent-decoded.
    static func decodedBare(_ segment: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let bare = segment.prefix { $0 != ASCII.semicolon }
        guard bare.contains(UInt8(ascii: "%")) else { return bare }
        return PercentDecoding.decodeRepeatedly(bare, plusIsSpace: false).0[...]
    }

    /// At least eight characters with a digit, or with both upper- and lowercase letters.
    static func isTokenLike(_ segment: ArraySlice<UInt8>) -> Bool {
        guard segment.count >= 8 else { return false }
        var digit = false
        var upper = false
        var lower = false
        for byte in segment {
            digit = digit || ASCII.isDigit(byte)
            upper = upper || WordScanner.isUpper(byte)
            lower = lower || WordScanner.isLower(byte)
        }
        return digit || (upper && lower)
    }
}

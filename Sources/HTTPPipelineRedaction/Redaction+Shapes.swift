/// Secrets recognised by their shape, whatever name they go by.
///
/// Written from the formats the issuers document (and public secret-scanning rule sets list):
/// - credentials with a published prefix (``prefixes``): GitHub `ghp_` `gho_` `ghu_` `ghs_`
///   `ghr_` `github_pat_`, GitLab `glpat-`, Slack `xoxb-` `xoxp-` `xoxa-` `xoxr-` `xoxs-` `xoxe-`
///   `xapp-`, Stripe `sk_live_` `rk_live_` `sk_test_` `rk_test_` `whsec_`, AWS access key ids
///   `AKIA` `ASIA` `ABIA` `ACCA`, Google API keys `AIza` and OAuth tokens `ya29.`, OpenAI and
///   Anthropic `sk-proj-` `sk-ant-` `sk-svcacct-` `sk-admin-`, npm `npm_`, PyPI `pypi-`,
///   Hugging Face `hf_`, Docker `dckr_pat_`, DigitalOcean `dop_v1_` `doo_v1_` `dor_v1_`, Shopify
///   `shpat_` `shpca_` `shppa_` `shpss_`, SendGrid `SG.`, Mailgun `key-` (with 32 hex digits),
///   Square `sq0atp-` `sq0csp-`, Sentry `sntrys_`, Postman `PMAK-`, Atlassian `ATATT3`;
/// - JSON Web Tokens (`eyJ…` header, `.`, payload, `.`, signature; JWE's five parts too);
/// - Telegram bot tokens (`123456789:` and 35 characters, with or without `bot` before);
/// - base64 of a PEM private key (`LS0tLS1CRUdJTi…`, which decodes to `-----BEGIN … PRIVATE KEY`);
/// - random-looking tokens (``RandomToken``), where a secret is plausible.
///
/// PEM blocks (`-----BEGIN … PRIVATE KEY-----` to `-----END …`) span lines and are found by the
/// free-text rules.
enum SecretShapes {
    /// A credential format: a prefix, then at least `minimumTail` characters of `tail`.
    struct Prefix {
        let bytes: [UInt8]
        let minimumTail: Int
        let tail: Tail
    }

    /// The characters a credential's tail is made of.
    enum Tail {
        /// Letters and digits.
        case alphanumeric
        /// Letters, digits, `_` and `-` (base64url).
        case base64URL
        /// Letters, digits, `_`, `-` and `.`.
        case dotted
        /// Uppercase letters and digits.
        case upperAlphanumeric
        /// Hexadecimal digits.
        case hex

        func allows(_ byte: UInt8) -> Bool {
            switch self {
            case .alphanumeric: RandomToken.isAlphanumeric(byte)
            case .base64URL: RandomToken.isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            case .dotted:
                RandomToken.isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            case .upperAlphanumeric: ASCII.isDigit(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            case .hex: ASCII.isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
            }
        }
    }

    static let prefixes: [Prefix] = {
        var list: [Prefix] = []
        func add(_ names: [String], _ minimumTail: Int, _ tail: Tail) {
            list += names.map { Prefix(bytes: Array($0.utf8), minimumTail: minimumTail, tail: tail) }
        }
        add(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], 30, .alphanumeric)
        add(["github_pat_"], 40, .base64URL)
        add(["glpat-"], 20, .base64URL)
        add(["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxe.xoxp-", "xapp-"], 10, .base64URL)
        add(["sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_"], 16, .alphanumeric)
        add(["AKIA", "ASIA", "ABIA", "ACCA"], 16, .upperAlphanumeric)
        add(["AIza"], 30, .base64URL)
        add(["ya29."], 20, .dotted)
        add(["sk-proj-", "sk-ant-", "sk-svcacct-", "sk-admin-"], 20, .base64URL)
        add(["npm_"], 30, .alphanumeric)
        add(["pypi-"], 50, .base64URL)
        add(["hf_"], 30, .alphanumeric)
        add(["dckr_pat_"], 20, .base64URL)
        add(["dop_v1_", "doo_v1_", "dor_v1_"], 40, .hex)
        add(["shpat_", "shpca_", "shppa_", "shpss_"], 24, .hex)
        add(["SG."], 40, .dotted)
        add(["key-"], 32, .hex)
        add(["sq0atp-", "sq0csp-"], 20, .base64URL)
        add(["sntrys_"], 40, .base64URL)
        add(["PMAK-"], 40, .base64URL)
        add(["ATATT3"], 40, .dotted)
        return list
    }()

    /// The prefixes by their first byte.
    static let prefixesByFirstByte: [[Prefix]] = {
        var table = [[Prefix]](repeating: [], count: 128)
        for prefix in prefixes { table[Int(prefix.bytes[0])].append(prefix) }
        return table
    }()

    /// The fewest bytes a built-in shape needs; shorter runs are skipped at once.
    static let shortestShape = 15

    /// What can be part of a shaped token: base64 and base64url characters, `.`, `~` and `:`.
    static let tokenBytes = ByteSet { byte in
        RandomToken.isAlphanumeric(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+")
            || byte == ASCII.slash || byte == ASCII.equals || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
            || byte == ASCII.colon
    }

    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        tokenBytes.contains(byte)
    }

    /// The bytes a built-in shape can start with (prefixes, `eyJ`, Telegram's digits or `bot`,
    /// base64 PEM's `L`).
    static let shapeStarts = ByteSet { byte in
        (byte < 0x80 && !prefixesByFirstByte[Int(byte)].isEmpty) || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "b") || ASCII.isDigit(byte) || byte == UInt8(ascii: "L")
    }

    /// Calls `found` with the range of every shaped secret in `bytes`, in order, without overlaps.
    ///
    /// - Parameters:
    ///   - bytes: Text or a value.
    ///   - entropy: Whether random-looking tokens count (off where the name says the value is an
    ///     identifier, a hash or a nonce).
    ///   - redaction: The options, for the user's own rules.
    ///   - found: Called with each secret's range.
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, entropy: Bool, redaction: Redaction, _ found: (Range<Int>) -> Void
    ) {
        let shortest = min(shortestShape, redaction.shortestTokenRule)
        var index = 0
        while index < bytes.count {
            guard isTokenByte(bytes[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
            guard index - start >= shortest else { continue }
            let plausible = entropy && !wordsBeforeNameIdentifier(bytes, before: start)
            scanRun(bytes, start..<index, entropy: plausible, redaction: redaction, found)
        }
    }

    /// Whether one of the two words before `start` says what follows is an identifier
    /// (`X-Request-Id was req_7Hq…`, `trace id: 4bf9…`): in free text, the words before a token
    /// are its name.
    static func wordsBeforeNameIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, before start: Int) -> Bool {
        var end = start
        for _ in 0..<2 {
            while end > 0, start - end < 48, !RandomToken.isAlphanumeric(bytes[end - 1]) { end -= 1 }
            var wordStart = end
            while wordStart > 0, start - wordStart < 48,
                RandomToken.isAlphanumeric(bytes[wordStart - 1]) || bytes[wordStart - 1] == UInt8(ascii: "-")
                    || bytes[wordStart - 1] == UInt8(ascii: "_")
            {
                wordStart -= 1
            }
            guard wordStart < end else { return false }
            if RedactionLexicon.namesIdentifier(UnsafeBufferPointer(rebasing: bytes[wordStart..<end])) { return true }
            end = wordStart
        }
        return false
    }

    /// Whether any shape rule finds a secret in `bytes`.
    static func containsSecret(_ bytes: UnsafeBufferPointer<UInt8>, entropy: Bool, redaction: Redaction) -> Bool {
        var any = false
        scan(bytes, entropy: entropy, redaction: redaction) { _ in any = true }
        return any
    }

    /// Finds the secrets in one run of token characters: shaped credentials where a token starts,
    /// then random-looking pieces (and the user's test rules) in what is left.
    private static func scanRun(
        _ bytes: UnsafeBufferPointer<UInt8>, _ run: Range<Int>, entropy: Bool, redaction: Redaction,
        _ found: (Range<Int>) -> Void
    ) {
        var index = run.lowerBound
        var rest = run.lowerBound
        while index < run.upperBound {
            let atBoundary = index == run.lowerBound || !RandomToken.isAlphanumeric(bytes[index - 1])
            if atBoundary, let end = shapeEnd(bytes, at: index, in: run, redaction: redaction) {
                scanPieces(bytes, rest..<index, entropy: entropy, redaction: redaction, found)
                found(index..<end)
                index = end
                rest = end
                continue
            }
            index += 1
        }
        scanPieces(bytes, rest..<run.upperBound, entropy: entropy, redaction: redaction, found)
    }

    /// Where a credential, JWT, Telegram token or base64 private key starting at `start` ends,
    /// or `nil` when none starts there.
    static func shapeEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, in run: Range<Int>, redaction: Redaction)
        -> Int?
    {
        for rule in redaction.tokenRules {
            if let end = rule.prefixEnd(bytes, at: start, in: run) { return end }
        }
        guard run.upperBound - start >= shortestShape else { return nil }
        let first = bytes[start]
        guard shapeStarts.contains(first) else { return nil }
        if first < 0x80 {
            for prefix in prefixesByFirstByte[Int(first)] {
                guard run.upperBound - start >= prefix.bytes.count + prefix.minimumTail,
                    UnsafeBufferPointer(rebasing: bytes[start..<start + prefix.bytes.count]).elementsEqual(prefix.bytes)
                else { continue }
                var end = start + prefix.bytes.count
                while end < run.upperBound, prefix.tail.allows(bytes[end]) { end += 1 }
                if end - start - prefix.bytes.count >= prefix.minimumTail { return end }
            }
        }
        if first == UInt8(ascii: "e") { return jsonWebTokenEnd(bytes, at: start, in: run) }
        if first == UInt8(ascii: "b") || ASCII.isDigit(first) { return telegramTokenEnd(bytes, at: start, in: run) }
        if first == UInt8(ascii: "L") { return base64PrivateKeyEnd(bytes, at: start, in: run) }
        return nil
    }

    /// A JSON Web Token: `eyJ` and at least seven more base64url characters, then at least two
    /// more parts after dots (the last may be empty, as in an unsigned token).
    static func jsonWebTokenEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, in run: Range<Int>) -> Int? {
        guard run.upperBound - start >= 16, bytes[start + 1] == UInt8(ascii: "y"), bytes[start + 2] == UInt8(ascii: "J")
        else { return nil }
        var end = start
        var parts = 1
        var partLength = 0
        var firstParts = (0, 0)
        while end < run.upperBound {
            let byte = bytes[end]
            if byte == UInt8(ascii: ".") {
                if parts == 1 { firstParts.0 = partLength } else if parts == 2 { firstParts.1 = partLength }
                parts += 1
                partLength = 0
            } else if Tail.base64URL.allows(byte) {
                partLength += 1
            } else {
                break
            }
            end += 1
        }
        if parts == 2 { firstParts.1 = partLength }
        guard parts >= 3, firstParts.0 >= 10, firstParts.1 >= 2 else { return nil }
        return end
    }

    /// A Telegram bot token: 8 to 10 digits, `:`, at least 30 base64url characters; `bot` may come
    /// first, as in the Bot API's URLs (`/bot123456789:AA…/sendMessage`).
    static func telegramTokenEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, in run: Range<Int>) -> Int? {
        var index = start
        if bytes[index] == UInt8(ascii: "b") {
            guard run.upperBound - index > 3, bytes[index + 1] == UInt8(ascii: "o"),
                bytes[index + 2] == UInt8(ascii: "t")
            else { return nil }
            index += 3
        }
        let digitsStart = index
        while index < run.upperBound, ASCII.isDigit(bytes[index]) { index += 1 }
        guard (8...10).contains(index - digitsStart), index < run.upperBound, bytes[index] == ASCII.colon else {
            return nil
        }
        index += 1
        let tailStart = index
        while index < run.upperBound, Tail.base64URL.allows(bytes[index]) { index += 1 }
        return index - tailStart >= 30 ? index : nil
    }

    /// The base64 of `-----BEGIN`.
    static let base64PEMOpening = Array("LS0tLS1CRUdJTi".utf8)
    static let privateKeyWords = Array("PRIVATE KEY".utf8)

    /// Base64 of a PEM private key: it starts with the base64 of `-----BEGIN` and its first
    /// bytes decode to a line naming a private key.
    static func base64PrivateKeyEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, in run: Range<Int>) -> Int? {
        let opening = base64PEMOpening
        guard run.upperBound - start > 40,
            UnsafeBufferPointer(rebasing: bytes[start..<start + opening.count]).elementsEqual(opening)
        else { return nil }
        let decoded = RedactionBase64.decode(
            UnsafeBufferPointer(rebasing: bytes[start..<min(run.upperBound, start + 80)]))
        guard contains(decoded[...], privateKeyWords) else { return nil }
        var end = start
        while end < run.upperBound, RedactionBase64.value(bytes[end]) != nil || bytes[end] == ASCII.equals { end += 1 }
        return end
    }

    /// Whether `haystack` contains `needle`.
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in haystack.startIndex...(haystack.endIndex - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Splits what is left of a run into pieces at `.`, `:`, `~` and at a `=` that is not
    /// padding, and reports each piece that looks random or that a user's rule matches.
    private static func scanPieces(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, entropy: Bool, redaction: Redaction,
        _ found: (Range<Int>) -> Void
    ) {
        let tests = redaction.tokenRules.contains { $0.test != nil }
        guard tests || (entropy && range.count >= RandomToken.minimumLength) else { return }
        var start = range.lowerBound
        // The piece before a `=` or `:` names the piece after it (`code_challenge=…`).
        var previous: Range<Int>?
        for index in range.lowerBound...range.upperBound
        where index == range.upperBound || endsPiece(bytes, index, range) {
            if index > start {
                let named =
                    entropy && start > range.lowerBound
                    && (bytes[start - 1] == ASCII.equals || bytes[start - 1] == ASCII.colon)
                    && previous.map { RedactionLexicon.namesIdentifier(UnsafeBufferPointer(rebasing: bytes[$0])) }
                        == true
                piece(bytes, start..<index, entropy: entropy && !named, tests: tests ? redaction.tokenRules : [], found)
                previous = start..<index
            }
            start = index + 1
        }
    }

    /// Whether the byte at `index` separates pieces: `.`, `:`, `~`, or a `=` that is not padding.
    private static func endsPiece(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ range: Range<Int>) -> Bool {
        let byte = bytes[index]
        if byte == UInt8(ascii: ".") || byte == ASCII.colon || byte == UInt8(ascii: "~") { return true }
        return byte == ASCII.equals && index + 1 < range.upperBound && bytes[index + 1] != ASCII.equals
    }

    /// Reports a piece that a user's rule matches or that looks random. A piece with `/` is a
    /// path when one of its segments is a short plain lowercase word (`users`, `v1`): then each
    /// segment is judged alone; otherwise (base64 with `/`) the piece is judged whole.
    private static func piece(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, entropy: Bool, tests: [Redaction.TokenRule],
        _ found: (Range<Int>) -> Void
    ) {
        let piece = UnsafeBufferPointer(rebasing: bytes[range])
        if tests.contains(where: { $0.matches(piece) }) {
            found(range)
            return
        }
        guard entropy, range.count >= RandomToken.minimumLength else { return }
        guard piece.contains(ASCII.slash) else {
            if RandomToken.looksRandom(piece) { found(range) }
            return
        }
        var segments: [Range<Int>] = []
        var start = range.lowerBound
        for index in range.lowerBound...range.upperBound where index == range.upperBound || bytes[index] == ASCII.slash
        {
            if index > start { segments.append(start..<index) }
            start = index + 1
        }
        let isPath = segments.contains { segment in
            segment.count <= 12 && bytes[segment].allSatisfy { (0x61...0x7A).contains($0) || ASCII.isDigit($0) }
        }
        if !isPath, RandomToken.looksRandom(piece) {
            found(range)
            return
        }
        for segment in segments where RandomToken.looksRandom(UnsafeBufferPointer(rebasing: bytes[segment])) {
            found(segment)
        }
    }
}

/// Just enough base64 to read the first line of an encoded PEM block.
enum RedactionBase64 {
    static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case ASCII.slash, UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// Decodes base64 or base64url, stopping at the first byte that is neither.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            guard let value = value(byte) else { break }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }
}

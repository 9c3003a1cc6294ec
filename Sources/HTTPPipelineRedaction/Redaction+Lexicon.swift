/// Names judged by their words: `signingKey`, `client_assertion`, `x-api-token` and
/// `refreshTokenHint` are secret because one of their words is, while `keyboard`, `monkey`,
/// `tokenizer`, `Author` and `WWW-Authenticate` stay visible because none of theirs is.
///
/// A name is split into words at every character that is not a letter or a digit (`_`, `-`, `.`,
/// spaces, brackets), between a lowercase letter and an uppercase one (`signingKey`), before the
/// last capital of a run followed by a lowercase letter (`SAMLResponse` → `saml`, `response`) and
/// between letters and digits (`Set-Cookie2` → `set`, `cookie`, `2`). Each word, lowercased, is
/// secret when:
/// - it is one of ``secretWords``, or contains one of ``secretFragments`` (`phpsessid`,
///   `xapitoken`), or ends in `key`/`keys` (`apikey`, `accesskey`) — unless it is one of
///   ``safeWords``;
/// - and the word next to it does not make it public (``publicBefore``, ``publicAfter``:
///   `publicKey`, `Idempotency-Key`, `token_type`, `max_tokens`).
///
/// `code` is secret alone (`code=…`, `data[code]`) or after a word that makes it a credential
/// (``codeQualifiers``: `device_code`, `user_code`, `authorizationCode`); elsewhere
/// (`status_code`, `countryCode`, `code_challenge`) it is not. (PKCE's `code_challenge` is public
/// by design: it is sent through the browser; its `code_verifier` is secret.)
enum RedactionLexicon {
    /// Words that are secret on their own.
    static let secretWords: [String] =
        ([
            "password", "passwords", "passwd", "pwd", "pw", "pass", "passphrase", "passcode", "secret", "secrets",
            "token", "tokens", "key", "keys", "credential", "credentials", "creds", "auth", "authorization",
            "signature", "signatures", "sig", "session", "sessions", "sid", "cookie", "cookies", "pin", "otp", "totp",
            "hotp", "cvv", "cvc", "csc", "assertion", "verifier", "jwt", "jws", "jwe", "bearer", "hmac", "samlresponse",
        ])

    /// Words containing any of these are secret (`phpsessid`, `jsessionid`, `xauthtoken`,
    /// `oauth`), unless they are ``safeWords``.
    static let secretFragments: [[UInt8]] = [
        "token", "secret", "passw", "passphrase", "passcode", "credential", "session", "sessid", "signature",
        "cookie", "auth", "bearer",
    ].map { Array($0.utf8) }

    /// Words that contain a secret word or fragment without being secret.
    ///
    /// `authenticate` and `authentication` name challenges and their parameters
    /// (`WWW-Authenticate`, `Authentication-Info`), never the credential itself.
    static let safeWords: [String] =
        ([
            "author", "authors", "authored", "authoring", "authorship", "authority", "authorities", "authoritative",
            "authorize", "authorized", "authorise", "authorised", "unauthorized", "unauthorised", "authenticate",
            "authenticated", "authenticates", "authentication", "authenticator", "authentic", "authenticity",
            "unauthenticated", "tokenizer", "tokenizers", "tokenize", "tokenized", "tokenizing", "tokenization",
            "detokenize", "monkey", "monkeys", "donkey", "donkeys", "turkey", "hockey", "jockey", "whiskey", "lackey",
            "hotkey", "hotkeys", "keyboard", "keyboards", "keynote", "keyword", "keywords", "keystroke", "keystrokes",
            "keypad", "keyframe", "keyframes", "secretary", "secretariat",
        ])

    /// A secret word after one of these is public: `publicKey`, `Idempotency-Key`, `max_tokens`
    /// (a language model's budget), `Access-Control-Allow-Credentials` (a flag).
    static let publicBefore: [String: [String]] = [
        "key": [
            "public", "idempotency", "cache", "sort", "partition", "primary", "foreign", "dedup", "deduplication",
            "routing", "object",
        ],
        "keys": ["public", "primary", "foreign", "sort", "object"],
        "tokens": ["max", "prompt", "completion", "total", "input", "output", "cached", "reasoning"],
        "credentials": ["allow"],
    ]

    /// A secret word before one of these is public: `token_type` (`Bearer`), `keyId`,
    /// `client_assertion_type` (a fixed URN), `token_uri` and `auth_uri` (an endpoint, whose URL
    /// is still redacted as a URL). Not after `private`: a service account's `private_key_id`
    /// stays secret.
    static let publicAfter: [String: [String]] = [
        "token": ["type", "count", "usage", "limit", "uri", "url", "endpoint"],
        "auth": ["uri", "url", "endpoint", "provider", "type", "method", "scheme"],
        "assertion": ["type"],
        "key": ["id", "ids", "name", "type", "size", "length", "alias", "usage", "format", "version"],
    ]

    /// Words that make the `code` after them a credential: OAuth's authorization code, the
    /// device flow's `device_code` and `user_code`, one-time and recovery codes.
    static let codeQualifiers: [String] =
        ([
            "auth", "authorization", "authorisation", "oauth", "device", "user", "verification", "verify", "otp",
            "totp",
            "sms", "mfa", "fa", "reset", "recovery", "backup", "security", "activation", "confirmation", "confirm",
            "invite", "invitation", "access", "login", "signin", "magic", "grant", "exchange",
        ])

    /// Words that are secret after another: `code` after ``codeQualifiers``, a SAML `response`.
    static let secretAfter: [String: [String]] = [
        "code": codeQualifiers, "codes": codeQualifiers, "response": ["saml"],
    ]

    /// Words that say a value identifies, checks or versions something (`X-Request-Id`, `ETag`,
    /// `traceparent`, `If-None-Match`, `cursor`, `nonce`, PKCE's public `code_challenge`) or
    /// carries media (`avatar`, `image`): random-looking values under such names are shown.
    /// Shaped credentials are hidden anyway.
    static let identifierWords: [String] =
        ([
            "id", "ids", "uuid", "uuids", "guid", "etag", "etags", "hash", "hashes", "digest", "checksum", "crc", "md",
            "sha", "trace", "traceparent", "tracestate", "traceid", "span", "spanid", "correlation", "correlationid",
            "requestid", "messageid", "ray", "nonce", "cursor", "version", "revision", "rev", "commit", "build",
            "fingerprint", "thumbprint", "integrity", "match", "kid", "jti", "idempotency", "image", "photo", "avatar",
            "thumbnail", "icon", "picture", "logo", "blob", "base", "challenge", "challenges",
        ])

    /// Path segments after which a token-like segment is a secret (`/password/reset/<token>`,
    /// `/invite/<token>`, `/api/webhooks/<id>/<token>`).
    static let secretPathWords: [String] =
        ([
            "reset", "token", "tokens", "verify", "verification", "confirm", "confirmation", "activate", "activation",
            "invite", "invites", "invitation", "invitations", "magic", "webhook", "webhooks", "hook", "hooks",
            "password",
            "passwords", "secret", "secrets", "key", "keys", "session", "sessions", "auth", "login", "signin",
            "unsubscribe",
        ])

    /// Common words of HTTP names that hold no secret fragment, so that judging `Content-Type`
    /// or `User-Agent` skips the fragment search (a test checks that none holds a fragment).
    static let plainWords: [String] = [
        "accept", "access", "age", "agent", "alive", "allow", "alt", "api", "by", "cache", "charset", "client",
        "connection", "content", "control", "cross", "date", "dest", "disposition", "encoding", "expires", "fetch",
        "for", "forwarded", "frame", "from", "headers", "host", "if", "keep", "lang", "language", "last", "length",
        "link", "location", "max", "methods", "mode", "modified", "name", "none", "options", "origin", "page", "policy",
        "powered", "pragma", "proto", "range", "real", "referer", "referrer", "request", "retry", "after", "sec",
        "server", "since", "site", "sort", "status", "strict", "transfer", "transport", "type", "upgrade", "user",
        "vary", "via", "warning", "www", "x", "q", "limit", "offset", "count", "lang", "locale", "format", "include",
        "fields", "filter", "query", "search", "state", "scope", "grant", "redirect", "uri", "url", "response",
    ]

    /// What the lists above say about single words, in one table.
    static let table = WordTable(
        [
            (secretWords, WordFlags.secret), (safeWords, .safe), (identifierWords, .identifier),
            (secretPathWords, .pathContext), (plainWords, .plain),
        ].flatMap { list, flag in list.map { (Word($0), flag) } })

    /// What the lists above say about pairs of adjacent words, in one table.
    static let pairs = PairTable(
        publicBefore.flatMap { word, before in before.map { (Word($0), Word(word), PairKind.publicBefore) } }
            + publicAfter.flatMap { word, after in after.map { (Word(word), Word($0), PairKind.publicAfter) } }
            + secretAfter.flatMap { word, before in before.map { (Word($0), Word(word), PairKind.secretAfter) } })

    static let code = Word("code")
    static let codes = Word("codes")

    /// What a name says: whether it is secret, and whether it names an identifier.
    struct Verdict {
        var isSecret = false
        var namesIdentifier = false
    }

    /// Judges a name (decoded, in its original case) by its words.
    ///
    /// Each bracketed part of a name (`user[password]`, `data[code]`) also counts as a name of
    /// its own, so a lone `code` inside brackets is secret.
    static func judge(_ name: UnsafeBufferPointer<UInt8>) -> Verdict {
        var verdict = Verdict()
        var scanner = WordScanner(name)
        var previous: Word?
        var current = scanner.next()
        while let word = current {
            let next = scanner.next()
            let flags = table.flags(word.value)
            if flags.contains(.identifier) { verdict.namesIdentifier = true }
            if !verdict.isSecret {
                if word.value == code || word.value == codes, word.startsPart, next == nil || next?.startsPart == true {
                    verdict.isSecret = true
                } else if let previous, pairs.contains(previous, word.value, .secretAfter) {
                    verdict.isSecret = true
                } else if isSecretWord(word, flags: flags, in: name, previous: previous, next: next?.value) {
                    verdict.isSecret = true
                }
            }
            previous = word.value
            current = next
        }
        return verdict
    }

    /// Whether a name is secret under the built-in words.
    static func isSecret(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        judge(name).isSecret
    }

    /// Whether a name says its value is an identifier, a hash, a nonce or media
    /// (``identifierWords``).
    static func namesIdentifier(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        judge(name).namesIdentifier
    }

    /// Whether a name says its value is an identifier, a hash, a nonce or media.
    static func namesIdentifier(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(namesIdentifier)
    }

    /// Whether any word of a path segment announces a secret (``secretPathWords``).
    static func announcesSecret(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = WordScanner(segment)
        while let word = scanner.next() {
            if table.flags(word.value).contains(.pathContext) { return true }
        }
        return false
    }

    /// Whether one word is secret in its place.
    static func isSecretWord(
        _ word: ScannedWord, flags: WordFlags, in name: UnsafeBufferPointer<UInt8>, previous: Word?, next: Word?
    ) -> Bool {
        if flags.contains(.safe) { return false }
        let bytes = UnsafeBufferPointer(rebasing: name[word.range])
        let secret =
            flags.contains(.secret)
            || (!flags.contains(.plain) && (endsInKey(bytes) || (bytes.count >= 4 && containsFragment(bytes))))
        guard secret else { return false }
        if let previous, pairs.contains(previous, word.value, .publicBefore) { return false }
        if let next, pairs.contains(word.value, next, .publicAfter), previous != privateWord { return false }
        return true
    }

    /// The word that keeps `key id` secret: `private_key_id`.
    static let privateWord = Word("private")

    /// Whether a word ends in `key` or `keys` and is longer than that (`apikey`, `accesskey`).
    static func endsInKey(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = word.count
        if end > 4, word[end - 1] | 0x20 == UInt8(ascii: "s") { end -= 1 }
        guard end > 3 else { return false }
        return word[end - 3] | 0x20 == UInt8(ascii: "k") && word[end - 2] | 0x20 == UInt8(ascii: "e")
            && word[end - 1] | 0x20 == UInt8(ascii: "y")
    }

    /// Whether a word contains a secret fragment, compared case-insensitively.
    static func containsFragment(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        for start in 0..<word.count {
            let first = lowercase(word[start])
            // The first letters of ``secretFragments``: most positions are rejected here.
            guard
                first == UInt8(ascii: "t") || first == UInt8(ascii: "s") || first == UInt8(ascii: "p")
                    || first == UInt8(ascii: "c") || first == UInt8(ascii: "a") || first == UInt8(ascii: "b")
            else { continue }
            for fragment in secretFragments where fragment[0] == first && start + fragment.count <= word.count {
                var offset = 1
                while offset < fragment.count, lowercase(word[start + offset]) == fragment[offset] { offset += 1 }
                if offset == fragment.count { return true }
            }
        }
        return false
    }

    /// An ASCII letter lowercased; any other byte as it is.
    @inline(__always)
    static func lowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}

/// A lowercase ASCII word of at most 16 bytes, packed for cheap hashing and comparison. A longer
/// word, or one with non-ASCII bytes, packs to the empty word, which no list holds.
struct Word: Equatable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var count: UInt8 = 0

    init() {}

    init(_ literal: String) {
        self = Array(literal.utf8).withUnsafeBufferPointer { Word($0) }
    }

    /// Packs bytes, lowercasing ASCII letters.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 16 else { return }
        for offset in 0..<bytes.count {
            let byte = bytes[offset]
            guard byte < 0x80 else {
                self = Word()
                return
            }
            let shifted = UInt64(RedactionLexicon.lowercase(byte)) << (8 * UInt64(offset & 7))
            if offset < 8 { low |= shifted } else { high |= shifted }
        }
        count = UInt8(bytes.count)
    }
}

/// A word found in a name.
struct ScannedWord {
    /// The word, packed.
    var value: Word
    /// Where the word is in the name.
    var range: Range<Int>
    /// Whether the word starts the name or a bracketed part of it.
    var startsPart: Bool
}

/// Splits a name into words.
struct WordScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Whether the next word starts the name or a bracketed part.
    var atPartStart = true

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next word, or `nil` at the end.
    mutating func next() -> ScannedWord? {
        while index < bytes.count, !Self.isWordByte(bytes[index]) {
            if bytes[index] == ASCII.leftBracket { atPartStart = true }
            index += 1
        }
        guard index < bytes.count else { return nil }
        let start = index
        index += 1
        while index < bytes.count, Self.isWordByte(bytes[index]), !isBoundary(at: index) { index += 1 }
        let startsPart = atPartStart
        atPartStart = false
        let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
        return ScannedWord(value: Word(word), range: start..<index, startsPart: startsPart)
    }

    /// Whether a new word starts at `index`, inside a run of word bytes.
    func isBoundary(at index: Int) -> Bool {
        let previous = bytes[index - 1]
        let byte = bytes[index]
        guard byte < 0x80, previous < 0x80 else { return false }
        if Self.isUpper(byte) {
            if Self.isLower(previous) || ASCII.isDigit(previous) { return true }
            // The last capital of a run that goes on in lowercase starts a word: `SAMLResponse`.
            if Self.isUpper(previous), index + 1 < bytes.count, Self.isLower(bytes[index + 1]) { return true }
            return false
        }
        return ASCII.isDigit(byte) != ASCII.isDigit(previous)
    }

    /// Letters, digits and every non-ASCII byte (so a UTF-8 sequence is never split).
    static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || ASCII.isLetter(byte) || ASCII.isDigit(byte)
    }

    static func isUpper(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte)
    }

    static func isLower(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte)
    }
}

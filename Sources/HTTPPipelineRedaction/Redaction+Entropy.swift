import Foundation

/// Whether a token looks like random bytes written out (a generated key or token) rather than
/// something a person or a program spelled: a word, an identifier, a date, a hash, a UUID.
///
/// A token qualifies when it is 20 to 512 characters of the base64/base62/base32/base36
/// alphabets (`A–Z a–z 0–9 + / _ - =`) and:
/// - it mixes at least two of uppercase letters, lowercase letters and digits, with letters making
///   up at least 30 % of it;
/// - it is not hexadecimal only (hashes, ETags, trace ids, UUIDs), not a ULID, not an object id
///   with a type prefix (`ord_1N4qJ2LkdIwHu7ix`; keys with a known prefix such as `sk_live_` or
///   `ghp_` are caught by their shape, ``SecretShapes``), and does not start like base64 image or
///   PDF data;
/// - it is not built of simple pieces joined by `-`, `_`, `/` or `+` (`x86_64-linux-gnu`,
///   `SKU-2024-HTTP-1234`);
/// - its letters do not read like words: in a camelCase or lowercase identifier nearly every pair of
///   adjacent letters is one English spelling allows (a consonant and a vowel, or a common
///   cluster such as `th`, `st`, `ng`), while in random text only about half are; and its
///   characters carry enough information (Shannon entropy of at least 3 bits each, rising with
///   length).
///
/// Measured by `RedactionEntropyTests` on 1,000 random tokens per alphabet (base62, base64,
/// base64url, base36, base32) and length: at least 99.5 % of 32-character tokens and 99 % of
/// 24-character ones are caught (about 98 % of 20-character base36 and base32 ones), and none of
/// 2,000 identifier, slug, date, version, hash and id controls is.
enum RandomToken {
    static let minimumLength = 20
    static let maximumLength = 512

    /// Whether the token looks random.
    static func looksRandom(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = token.count
        while end > 0, token[end - 1] == ASCII.equals { end -= 1 }
        let token = UnsafeBufferPointer(rebasing: token[..<end])
        guard (minimumLength...maximumLength).contains(token.count) else { return false }
        var stats = Stats()
        for byte in token {
            guard stats.add(byte) else { return false }
        }
        let classes = (stats.upper > 0 ? 1 : 0) + (stats.lower > 0 ? 1 : 0) + (stats.digits > 0 ? 1 : 0)
        let letters = stats.upper + stats.lower
        guard classes >= 2, letters * 10 >= token.count * 3, !stats.hexOnly else { return false }
        guard !isULID(token), !isPrefixedObjectID(token), !startsLikeData(token), !isStructured(token) else {
            return false
        }
        guard entropy(token) >= min(4.0, 3.0 + Double(token.count - minimumLength) * 0.02) else { return false }
        var shape = Shape()
        shape.read(token)
        let readsLikeWords =
            shape.pairs >= 4 && shape.pronounceablePairs * 4 >= shape.pairs * 3 && shape.pairs * 20 >= letters * 11
            && shape.averageSegment >= 2.5 && shape.digitRuns < 4
        return !readsLikeWords
    }

    /// Character counts, and whether every character is a hex digit or `-`.
    struct Stats {
        var upper = 0
        var lower = 0
        var digits = 0
        var hexOnly = true

        /// Counts one byte; `false` for a byte no token holds.
        mutating func add(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                upper += 1
                hexOnly = hexOnly && byte <= UInt8(ascii: "F")
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                lower += 1
                hexOnly = hexOnly && byte <= UInt8(ascii: "f")
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
            case UInt8(ascii: "-"):
                break
            case UInt8(ascii: "_"), UInt8(ascii: "+"), ASCII.slash, ASCII.equals:
                hexOnly = false
            default:
                return false
            }
            return true
        }
    }

    /// A ULID (26 characters of Crockford's base32, uppercase, starting with a time digit):
    /// a sortable id, not a secret.
    static func isULID(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        guard token.count == 26, let first = token.first, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(first)
        else { return false }
        return token.allSatisfy { ASCII.isDigit($0) || ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)) }
    }

    /// An object id with a type prefix, the shape of Stripe's and many APIs' ids
    /// (`ord_1N4qJ2LkdIwHu7ix`, `cus_NffrFeUfNV2Hib`): two to eight lowercase letters, one `_`,
    /// then 8 to 32 letters and digits. A prefix that is a secret word itself (`tok_`, `key_`,
    /// `secret_`, `sess_`, `sk_`) does not make an id.
    static func isPrefixedObjectID(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let underscore = token.firstIndex(of: UInt8(ascii: "_")), (2...8).contains(underscore),
            (8...32).contains(token.count - underscore - 1)
        else { return false }
        let prefix = UnsafeBufferPointer(rebasing: token[..<underscore])
        guard prefix.allSatisfy(WordScanner.isLower), token[(underscore + 1)...].allSatisfy(isAlphanumeric) else {
            return false
        }
        if secretIDPrefixes.contains(where: { $0.elementsEqual(prefix) }) { return false }
        return !RedactionLexicon.isSecret(prefix)
    }

    /// Prefixes of keys and tokens that the lexicon alone would not call secret.
    static let secretIDPrefixes: [[UInt8]] = ["sk", "rk", "tok", "sess", "pat", "pwd", "ak", "whsec"].map {
        Array($0.utf8)
    }

    /// The base64 openings of PNG, JPEG, GIF, WebP and PDF data.
    static let dataOpenings: [[UInt8]] = ["iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "JVBERi0"].map { Array($0.utf8) }

    static func startsLikeData(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        dataOpenings.contains { token.starts(with: $0) }
    }

    /// Whether the token is simple pieces joined by `-`, `_`, `/`, `+`: each piece of more than
    /// three characters is at most two runs (`linux`, `x86`, `2024`, `Http2`, `for28`).
    static func isStructured(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        var pieces = 0
        var index = 0
        while index < token.count {
            while index < token.count, !isAlphanumeric(token[index]) { index += 1 }
            guard index < token.count else { break }
            let start = index
            var runs = 0
            while index < token.count, isAlphanumeric(token[index]) {
                index = runEnd(token, from: index)
                runs += 1
            }
            pieces += 1
            if index - start > 3, runs > 2 { return false }
        }
        return pieces > 1
    }

    /// The end of the run starting at `start`: digits, lowercase letters, a capital followed by
    /// lowercase letters (a camelCase word), or capitals (an acronym).
    static func runEnd(_ token: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let kind = Kind(token[start])
        var end = start + 1
        if kind == .upper, end < token.count, Kind(token[end]) == .lower {
            while end < token.count, Kind(token[end]) == .lower { end += 1 }
            return end
        }
        while end < token.count, Kind(token[end]) == kind { end += 1 }
        if kind == .upper, end < token.count, Kind(token[end]) == .lower, end - start > 1 { end -= 1 }
        return end
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        ASCII.isLetter(byte) || ASCII.isDigit(byte)
    }

    /// Shannon entropy of the token's characters, in bits per character.
    static func entropy(_ token: UnsafeBufferPointer<UInt8>) -> Double {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 128) { counts in
            counts.initialize(repeating: 0)
            for byte in token { counts[Int(byte & 0x7F)] += 1 }
            let total = Double(token.count)
            var bits = 0.0
            for count in counts where count > 0 {
                let share = Double(count) / total
                bits -= share * log2(share)
            }
            return bits
        }
    }

    /// The class of a character.
    enum Kind: Equatable {
        case upper, lower, digit, other

        init(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): self = .upper
            case UInt8(ascii: "a")...UInt8(ascii: "z"): self = .lower
            case UInt8(ascii: "0")...UInt8(ascii: "9"): self = .digit
            default: self = .other
            }
        }
    }
}

extension RandomToken {
    /// How a token's letters are laid out: pairs of adjacent letters inside words, how many of
    /// them English spelling allows, the average run length and the number of digit runs.
    struct Shape {
        /// Letter pairs inside a lowercase run or a camelCase word.
        var pairs = 0
        /// Of those, the pairs English spelling allows.
        var pronounceablePairs = 0
        private var alphanumerics = 0
        private var runs = 0
        /// Runs of digits.
        var digitRuns = 0

        /// Alphanumeric characters per run.
        var averageSegment: Double {
            runs == 0 ? 0 : Double(alphanumerics) / Double(runs)
        }

        mutating func read(_ token: UnsafeBufferPointer<UInt8>) {
            var index = 0
            while index < token.count {
                guard isAlphanumeric(token[index]) else {
                    index += 1
                    continue
                }
                let end = runEnd(token, from: index)
                runs += 1
                alphanumerics += end - index
                if Kind(token[index]) == .digit {
                    digitRuns += 1
                } else if end - index > 1, Kind(token[end - 1]) == .lower {
                    for position in index..<(end - 1) {
                        pairs += 1
                        if Pronounceable.allows(token[position] | 0x20, token[position + 1]) {
                            pronounceablePairs += 1
                        }
                    }
                }
                index = end
            }
        }
    }
}

/// Which pairs of adjacent lowercase letters English spelling allows: a vowel and a consonant in
/// either order (but `q` only before `u`), and the common clusters of two consonants or two
/// vowels. Written for this purpose from general phonotactics; it only needs to tell words from
/// random letters, where roughly half the pairs are clusters English avoids (`xq`, `vz`, `kd`).
enum Pronounceable {
    static let clusters: Set<UInt16> = Set(
        ("""
        th ch sh ph wh gh ck ng nd nt nc nk ns nf nv nm st sp sc sk sm sn sl sw pl pr bl br cl cr dr fl fr gl gr tr \
        tw wr ll ss tt ff pp mm nn rr dd gg cc bb zz rd rt rs rn rm rl rk rc rg rv rb rp rf lt ld lf lk lm lp ls lv \
        lb lc mp mb ms ct pt ft xt ts ds ks ps gs ws hs bs cs fs ea ee ie oo ou ai oi au ue ui io ia eo ei ey ay oy \
        ua oa qu dg ry ly ny my ty dy py ky gy by fy vy hy sy cy wy xy zy yl yn ym yr ys yt yp yd yc
        """).split(separator: " ").map { pair in
            let bytes = Array(pair.utf8)
            return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        })

    static func isVowel(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"),
            UInt8(ascii: "y"):
            true
        default: false
        }
    }

    /// Whether lowercase `first` followed by lowercase `second` is a pair English spelling allows.
    static func allows(_ first: UInt8, _ second: UInt8) -> Bool {
        if first == UInt8(ascii: "q") { return second == UInt8(ascii: "u") }
        if isVowel(first) != isVowel(second) { return second != UInt8(ascii: "q") }
        return clusters.contains(UInt16(first) << 8 | UInt16(second))
    }
}

/// What the lexicon says about a single word.
struct WordFlags: OptionSet {
    let rawValue: UInt8

    /// A secret word (``RedactionLexicon/secretWords``).
    static let secret = WordFlags(rawValue: 1)
    /// A word that only contains a secret word (``RedactionLexicon/safeWords``).
    static let safe = WordFlags(rawValue: 2)
    /// A word that names an identifier (``RedactionLexicon/identifierWords``).
    static let identifier = WordFlags(rawValue: 4)
    /// A path segment word after which tokens are secret (``RedactionLexicon/secretPathWords``).
    static let pathContext = WordFlags(rawValue: 8)
    /// A common word known to hold no secret fragment (``RedactionLexicon/plainWords``): the
    /// fragment search is skipped.
    static let plain = WordFlags(rawValue: 16)
}

/// A set of bytes as a 256-bit mask: membership is two shifts and a test, with no reference
/// counting and no branches on the byte's value.
struct ByteSet {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(_ member: (UInt8) -> Bool) {
        for byte in 0...255 where member(UInt8(byte)) {
            let bit = UInt64(1) << UInt64(byte & 63)
            switch byte >> 6 {
            case 0: bits.0 |= bit
            case 1: bits.1 |= bit
            case 2: bits.2 |= bit
            default: bits.3 |= bit
            }
        }
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        let word =
            switch byte >> 6 {
            case 0: bits.0
            case 1: bits.1
            case 2: bits.2
            default: bits.3
            }
        return (word >> UInt64(byte & 63)) & 1 == 1
    }
}

/// How two adjacent words affect each other.
enum PairKind: UInt8 {
    /// The first word makes the second, a secret word, public (`publicKey`).
    case publicBefore
    /// The second word makes the first, a secret word, public (`token_type`).
    case publicAfter
    /// The first word makes the second secret (`device_code`).
    case secretAfter
}

extension Word {
    /// A cheap, well-mixed hash: the lexicon's tables are fixed and hold no untrusted keys, so a
    /// seeded hash (and its cost on every word of every name) buys nothing here.
    var mixed: UInt64 {
        var hash = low &* 0x9E37_79B9_7F4A_7C15
        hash ^= (high &+ UInt64(count)) &* 0xC2B2_AE3D_27D4_EB4F
        return hash ^ (hash >> 29)
    }
}

/// Flags per word, in an open-addressed table (linear probing, at most half full).
struct WordTable {
    private let keys: [Word]
    private let values: [WordFlags]
    private let mask: Int

    init(_ entries: [(Word, WordFlags)]) {
        var size = 16
        while size < entries.count * 2 { size *= 2 }
        var keys = [Word](repeating: Word(), count: size)
        var values = [WordFlags](repeating: [], count: size)
        for (word, flags) in entries where word.count > 0 {
            var slot = Int(truncatingIfNeeded: word.mixed) & (size - 1)
            while keys[slot].count != 0, keys[slot] != word { slot = (slot + 1) & (size - 1) }
            keys[slot] = word
            values[slot].formUnion(flags)
        }
        self.keys = keys
        self.values = values
        mask = size - 1
    }

    /// The flags of a word; empty for a word no list holds.
    func flags(_ word: Word) -> WordFlags {
        guard word.count > 0 else { return [] }
        var slot = Int(truncatingIfNeeded: word.mixed) & mask
        while keys[slot].count != 0 {
            if keys[slot] == word { return values[slot] }
            slot = (slot + 1) & mask
        }
        return []
    }
}

/// Pairs of adjacent words and how they affect each other, in an open-addressed table.
struct PairTable {
    private struct Key: Equatable {
        var first: Word
        var second: Word
        var kind: UInt8

        var mixed: UInt64 {
            (first.mixed &* 31) ^ second.mixed ^ (UInt64(kind) &* 0x1656_67B1_9E37_79F9)
        }
    }

    private let keys: [Key?]
    private let mask: Int

    init(_ entries: [(Word, Word, PairKind)]) {
        var size = 16
        while size < entries.count * 2 { size *= 2 }
        var keys = [Key?](repeating: nil, count: size)
        for (first, second, kind) in entries {
            let key = Key(first: first, second: second, kind: kind.rawValue)
            var slot = Int(truncatingIfNeeded: key.mixed) & (size - 1)
            while let existing = keys[slot], existing != key { slot = (slot + 1) & (size - 1) }
            keys[slot] = key
        }
        self.keys = keys
        mask = size - 1
    }

    /// Whether `first` then `second` form a pair of this kind.
    func contains(_ first: Word, _ second: Word, _ kind: PairKind) -> Bool {
        let key = Key(first: first, second: second, kind: kind.rawValue)
        var slot = Int(truncatingIfNeeded: key.mixed) & mask
        while let existing = keys[slot] {
            if existing == key { return true }
            slot = (slot + 1) & mask
        }
        return false
    }
}

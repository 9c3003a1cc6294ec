extension Redaction {
    /// ``mark`` as UTF-8.
    static let markBytes: [UInt8] = Array(mark.utf8)
    /// User info with a password, redacted: `<redacted>:<redacted>`.
    static let markPairBytes: [UInt8] = Array("\(mark):\(mark)".utf8)
}

/// The byte classes the redaction scanners work with; all of them ASCII, so a multi-byte UTF-8
/// sequence is never split by a rule.
enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let equals = UInt8(ascii: "=")
    static let colon = UInt8(ascii: ":")
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let at = UInt8(ascii: "@")
    static let ampersand = UInt8(ascii: "&")
    static let semicolon = UInt8(ascii: ";")
    static let question = UInt8(ascii: "?")
    static let hash = UInt8(ascii: "#")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let leftBrace = UInt8(ascii: "{")
    static let rightBrace = UInt8(ascii: "}")
    static let leftBracket = UInt8(ascii: "[")
    static let rightBracket = UInt8(ascii: "]")
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")

    /// A string's UTF-8 bytes (at most `limit` of them), copied in one go: `Array(text.utf8)`
    /// walks the view byte by byte.
    static func bytes(of text: String, upTo limit: Int = .max) -> [UInt8] {
        var text = text
        return text.withUTF8 { Array($0.prefix(limit)) }
    }

    static func isSpaceOrTab(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// Space, tab, line feed, vertical tab, form feed, carriage return.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || (0x09...0x0D).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// Letters, digits, `+`, `-`, `.`: what a URL scheme is made of.
    static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// Letters, digits, `_`, `-`, `.`, `%`, `[`, `]`: what an unquoted field name is made of
    /// (`access%5Ftoken`, `user[password]`).
    static func isNameCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "%") || byte == leftBracket || byte == rightBracket
    }

    /// The characters of an RFC 9110 token68 (a `Bearer` or `Basic` credential).
    static func isToken68(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "+")
            || byte == slash || byte == equals
    }

    /// What ends a run that could be the `user:pass` before an `@`.
    static func isTokenDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case quote, apostrophe, equals, slash, at, semicolon, leftBrace, rightBrace, leftBracket, rightBracket,
            UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","):
            true
        default:
            byte <= space || byte == 0x7F
        }
    }

    /// What ends a URL found in free text: whitespace, controls, and characters a URL never
    /// contains unencoded.
    static func endsURL(_ byte: UInt8) -> Bool {
        switch byte {
        case quote, apostrophe, leftBrace, rightBrace, backslash,
            UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "`"):
            true
        default:
            byte <= space || byte == 0x7F
        }
    }

    /// What ends the value of `name=value` in free text.
    static func endsEqualsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case ampersand, quote, apostrophe, semicolon, UInt8(ascii: ","), UInt8(ascii: ")"): true
        default: isWhitespace(byte)
        }
    }

    /// What ends an unquoted JSON-ish value.
    static func endsJSONValue(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == rightBrace || byte == rightBracket || isWhitespace(byte)
    }
}

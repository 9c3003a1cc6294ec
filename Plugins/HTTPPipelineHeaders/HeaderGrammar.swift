import HTTPPipeline

/// The HTTP field grammar (RFC 9110 §5.1, §5.5), as far as a client must enforce it.
enum HeaderGrammar {
    /// Field names are tokens: `!#$%&'*+-.^_`|~`, digits and letters, at least one.
    static func check(name: String) throws(HeaderError) {
        guard !name.isEmpty else { throw .invalidName(name, reason: "the name is empty") }
        for byte in name.utf8 where !HTTPGrammar.isTokenCharacter(byte) {
            throw .invalidName(name, reason: "\(describe(byte)) is not allowed in a header name")
        }
    }

    /// Field values may hold visible characters, spaces, tabs and bytes above 0x7F, but no other
    /// control character: above all no CR, LF or NUL, which would end or split the field. The
    /// core's rule, the one the transports apply.
    static func check(value: String, of name: String) throws(HeaderError) {
        let bytes = value.utf8
        if let offset = HTTPGrammar.firstInvalidFieldValueByte(bytes) {
            let byte = bytes[bytes.index(bytes.startIndex, offsetBy: offset)]
            throw .invalidValue(
                name: name, reason: "\(describe(byte)) is not allowed in a header value", offset: offset)
        }
    }

    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0D: "a carriage return (CR)"
        case 0x0A: "a line feed (LF)"
        case 0x00: "a NUL byte"
        case 0x20: "a space"
        case ..<0x20, 0x7F: "the control character 0x" + String(byte, radix: 16, uppercase: true)
        case 0x80...: "a non-ASCII byte"
        default: "'\(Character(Unicode.Scalar(byte)))'"
        }
    }

    /// A name made safe to print in an error: control characters shown as escapes.
    static func printable(_ name: String) -> String {
        "\""
            + name.unicodeScalars.map {
                $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0)
            }.joined() + "\""
    }
}

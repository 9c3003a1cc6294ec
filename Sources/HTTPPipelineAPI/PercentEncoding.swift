/// Percent-encoding for one path segment or one query name or value.
enum PercentEncoding {
    /// Encodes every byte except RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`).
    ///
    /// Everything with a meaning somewhere in a URL (`/ ? # & = + %` and spaces) is encoded, so
    /// the result is always exactly one segment or one value; `+` becomes `%2B` because many
    /// servers read a literal `+` in a query as a space.
    static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%"
                result.unicodeScalars.append(hexDigit(byte >> 4))
                result.unicodeScalars.append(hexDigit(byte & 0x0F))
            }
        }
        return result
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
    }
}

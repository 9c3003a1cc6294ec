/// Pieces of the HTTP grammar (RFC 9110) that more than one module checks against.
package enum HTTPGrammar {
    /// `tchar`: letters, digits and ``!#$%&'*+-.^_`|~``, the characters of a token such as a
    /// field name or a method.
    package static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            tokenPunctuation.contains(byte)
        }
    }

    /// Whether bytes form a token: at least one, each a ``isTokenCharacter(_:)``.
    package static func isToken<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenCharacter)
    }

    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
}

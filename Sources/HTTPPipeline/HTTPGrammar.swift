/// Pieces of the HTTP grammar (RFC 9110) that more than one module checks against.
package enum HTTPGrammar {
    /// `tchar`: letters, digits and ``!#$%&'*+-.^_`|~``, the characters of a token such as a
    /// field name or a method.
    package static func isTokenCharacter(_ byte: UInt8) -> Bool {
        // One bit per byte below 128: a shift and a mask, no hashing.
        let word = byte < 64 ? tokenBitsLow : byte < 128 ? tokenBitsHigh : 0
        return word & (1 << UInt64(byte & 63)) != 0
    }

    /// Whether bytes form a token: at least one, each a ``isTokenCharacter(_:)``.
    package static func isToken<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard !bytes.isEmpty else { return false }
        if let contiguous = bytes.withContiguousStorageIfAvailable({ buffer in
            for byte in buffer where !isTokenCharacter(byte) { return false }
            return true
        }) {
            return contiguous
        }
        return bytes.allSatisfy(isTokenCharacter)
    }

    /// Whether bytes hold CR, LF or NUL, which a field value must not (a header injection).
    package static func holdsLineBreakOrNUL<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        // All three are below 14: one comparison rules out nearly every byte (measured: the
        // three-way test through the UTF-8 view cost about 1,400 instructions a request).
        func isBad(_ byte: UInt8) -> Bool { byte < 14 && (byte == 0 || byte == 10 || byte == 13) }
        if let contiguous = bytes.withContiguousStorageIfAvailable({ buffer in buffer.contains(where: isBad) }) {
            return contiguous
        }
        return bytes.contains(where: isBad)
    }

    /// The token characters among bytes 0-63 and 64-127, one bit each: letters, digits and
    /// ``!#$%&'*+-.^_`|~`` (literals, so reading them costs no lazy-initialisation check).
    private static var tokenBitsLow: UInt64 { 0x03ff_6cfa_0000_0000 }
    private static var tokenBitsHigh: UInt64 { 0x57ff_ffff_c7ff_fffe }
}

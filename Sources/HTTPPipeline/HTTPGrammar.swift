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

    /// The offset of the first byte a field value must not hold, or `nil` when it holds none
    /// (RFC 9110 §5.5): a control character other than horizontal tab, so above all no CR, LF or
    /// NUL, which would end or split the field (a header injection). Visible characters, spaces,
    /// tabs and bytes above 0x7F (`obs-text`) are allowed.
    package static func firstInvalidFieldValueByte<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        // One comparison rules out nearly every byte; only controls look further.
        func isBad(_ byte: UInt8) -> Bool { byte < 0x20 ? byte != 0x09 : byte == 0x7F }
        if let contiguous = bytes.withContiguousStorageIfAvailable({ buffer in buffer.firstIndex(where: isBad) }) {
            return contiguous
        }
        return bytes.firstIndex(where: isBad).map { bytes.distance(from: bytes.startIndex, to: $0) }
    }

    /// The token characters among bytes 0-63 and 64-127, one bit each: letters, digits and
    /// ``!#$%&'*+-.^_`|~`` (literals, so reading them costs no lazy-initialisation check).
    private static var tokenBitsLow: UInt64 { 0x03ff_6cfa_0000_0000 }
    private static var tokenBitsHigh: UInt64 { 0x57ff_ffff_c7ff_fffe }
}

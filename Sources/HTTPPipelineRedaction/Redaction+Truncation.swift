/// Cutting text so that a cut never shows part of a secret, and noting what was left out.
enum SafeCut {
    /// The prefix of `bytes` worth scanning: at most `cap` bytes, ending at a clean boundary —
    /// right before or after whitespace, a quote or an apostrophe — so that no run of text is cut
    /// in two.
    ///
    /// Some rules look ahead within such a run: user info is only known as such by the `@` after
    /// it, a `Bearer` credential is only hidden when eight characters of it are seen (and it may
    /// contain `/` and `=`), an encoded value only shows its secret when decoded whole, a URL is
    /// judged by its whole authority. Half a run could therefore show a piece of a secret that
    /// the whole run hides, so the half is dropped. A long run without such a boundary is dropped
    /// whole. The boundary bytes are ASCII, so the cut also falls on a character boundary.
    ///
    /// - Parameters:
    ///   - bytes: The whole input.
    ///   - cap: The most bytes to keep.
    /// - Returns: `bytes` itself when it fits, else the safe prefix (possibly empty).
    static func scanPrefix(_ bytes: ArraySlice<UInt8>, cap: Int) -> ArraySlice<UInt8> {
        guard bytes.count > cap else { return bytes }
        var end = bytes.startIndex + max(0, cap)
        if !endsRun(bytes[end]) {
            while end > bytes.startIndex, !endsRun(bytes[end - 1]) { end -= 1 }
        }
        return bytes[bytes.startIndex..<end]
    }

    /// The prefix of a URL's bytes worth scanning: at most `cap` bytes, cut where every part
    /// kept is judged exactly as in the whole URL.
    ///
    /// That is before a query or fragment item separator (`&`, `;`, `#`) or at the query's `?`,
    /// so the authority, the path and every item kept are whole; or, when the authority settles
    /// its user info by itself (it has an `@`, or no `:` followed by anything but a port), before
    /// a `/` of the path. A URL without `scheme://`, or without such a place to cut before `cap`,
    /// gets `nil`: it must be redacted whole.
    ///
    /// - Parameters:
    ///   - bytes: The URL's text (at least `cap + 1` bytes of it, when it is longer).
    ///   - cap: The most bytes to keep.
    /// - Returns: `bytes` itself when it fits, the safe prefix, or `nil`.
    static func urlScanPrefix(_ bytes: ArraySlice<UInt8>, cap: Int) -> ArraySlice<UInt8>? {
        guard bytes.count > cap else { return bytes }
        guard let colon = Redaction.schemeColon(bytes), bytes[(colon + 1)...].starts(with: "//".utf8) else {
            return nil
        }
        let authority = colon + 3
        let rest = bytes[authority...]
        let pathStart =
            rest.firstIndex { $0 == ASCII.slash || $0 == ASCII.question || $0 == ASCII.hash } ?? rest.endIndex
        let queryStart = rest.firstIndex { $0 == ASCII.question || $0 == ASCII.hash } ?? rest.endIndex
        let settled =
            bytes[authority..<pathStart].contains(ASCII.at)
            || !Redaction.hasNonNumericPort(bytes[authority..<pathStart])
        var end = bytes.startIndex + max(0, cap)
        while end >= pathStart {
            let byte = bytes[end]
            if end >= queryStart {
                if end == queryStart || byte == ASCII.ampersand || byte == ASCII.semicolon || byte == ASCII.hash {
                    return bytes[bytes.startIndex..<end]
                }
            } else if settled, byte == ASCII.slash {
                return bytes[bytes.startIndex..<end]
            }
            end -= 1
        }
        return nil
    }

    /// Whitespace, a quote or an apostrophe: what ends every run a redaction rule looks into (a
    /// URL, user info, a credential, a `name=value` value).
    private static func endsRun(_ byte: UInt8) -> Bool {
        ASCII.isWhitespace(byte) || byte == ASCII.quote || byte == ASCII.apostrophe
    }

    /// Renders redacted bytes cut to `limit` bytes, with a note of how much was left out and of
    /// the limit that cut it.
    ///
    /// The cut falls on a character boundary, and never inside a ``Redaction/mark`` (a cut mark
    /// would still hide everything, but it would look like data).
    ///
    /// - Parameters:
    ///   - redacted: The redacted text.
    ///   - limit: The most bytes of text to show; `Int.max` for none (then only the scan limit
    ///     cuts, and the note names no limit).
    ///   - unscanned: Bytes of the original input that were never scanned (and are not shown).
    /// - Returns: The text, or its prefix followed by `… (N more bytes; limit L)`.
    static func render(_ redacted: [UInt8], limit: Int, unscanned: Int) -> String {
        let limit = max(0, limit)
        guard redacted.count > limit || unscanned > 0 else { return String(decoding: redacted, as: UTF8.self) }
        var cut = min(limit, redacted.count)
        let mark = Redaction.markBytes
        if cut < redacted.count {
            // Inside a mark? Cut before it.
            let earliest = max(0, cut - mark.count + 1)
            for start in earliest..<cut where redacted[start...].starts(with: mark) && start + mark.count > cut {
                cut = start
                break
            }
        }
        let text = characterPrefix(redacted, upTo: cut)
        let more = redacted.count - text.utf8.count + unscanned
        return text + note(more: more, limit: limit)
    }

    /// `… (N more bytes; limit L)`, or without the limit when there is none.
    static func note(more: Int, limit: Int) -> String {
        limit == .max ? "… (\(more) more bytes)" : "… (\(more) more bytes; limit \(limit))"
    }

    /// The longest prefix of at most `cut` bytes that ends on a `Character` boundary (or, inside
    /// an absurdly long grapheme cluster, on a Unicode scalar boundary).
    static func characterPrefix(_ bytes: [UInt8], upTo cut: Int) -> String {
        guard cut < bytes.count else { return String(decoding: bytes, as: UTF8.self) }
        var end = cut
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        // Look a little past the cut so a grapheme cluster that straddles it can be seen whole.
        var windowEnd = min(bytes.count, cut + 64)
        while windowEnd < bytes.count, bytes[windowEnd] & 0xC0 == 0x80 { windowEnd -= 1 }
        guard let window = String(validating: bytes[..<windowEnd], as: UTF8.self) else {
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        var index = window.utf8.index(window.startIndex, offsetBy: end)
        var steps = 0
        while index > window.startIndex, index.samePosition(in: window) == nil {
            steps += 1
            guard steps <= 64 else { return String(decoding: bytes[..<end], as: UTF8.self) }
            index = window.utf8.index(before: index)
        }
        return String(decoding: bytes[..<window.utf8.distance(from: window.startIndex, to: index)], as: UTF8.self)
    }
}

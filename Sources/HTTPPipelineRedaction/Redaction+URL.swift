public import Foundation

extension Redaction {
    /// The URL to log.
    ///
    /// User info is replaced by the mark (user and password alike), the values of secret query
    /// items (and of secret `name=value` items in the fragment or in path parameters such as
    /// `;jsessionid=…`) are replaced by the mark, and so is any query value that, once decoded,
    /// hides a secret of its own (a redirect URL carrying a `code`, say). Everything else is kept
    /// exactly as it was encoded, including the secret items' names. The query is parsed from
    /// its percent-encoded text, so odd encodings (`%00`, a lone `%`, invalid sequences) are
    /// handled, never rejected.
    ///
    /// - Parameter url: The URL as sent.
    /// - Returns: The URL's absolute string with its secrets replaced by ``mark``.
    public func url(_ url: URL) -> String {
        String(decoding: redactURL(ASCII.bytes(of: url.absoluteString)[...], depth: 0), as: UTF8.self)
    }

    /// The URL to log, redacted as by ``url(_:)`` and only then cut to at most `limit` bytes, on
    /// a character boundary and never inside a mark, followed by a note `… (N more bytes)` when
    /// anything was left out.
    ///
    /// A long URL is scanned only as far as the limit needs (four times it), and cut for that
    /// scan only where every part kept is judged exactly as in the whole URL (see
    /// ``SafeCut/urlScanPrefix(_:cap:)``); one with nowhere safe to cut is redacted whole. The
    /// text is never cut first and redacted after: whether a part is secret can depend on what
    /// follows it (the `@` that ends user info).
    package func url(_ url: URL, limit: Int) -> String {
        let limit = max(0, limit)
        let text = url.absoluteString
        let cap = Self.scanCap(limit: limit)
        let head = ASCII.bytes(of: text, upTo: cap + 1)
        if let kept = SafeCut.urlScanPrefix(head[...], cap: cap) {
            let unscanned = text.utf8.count - kept.count
            return SafeCut.render(redactURL(kept, depth: 0), limit: limit, unscanned: unscanned)
        }
        return SafeCut.render(redactURL(ASCII.bytes(of: text)[...], depth: 0), limit: limit, unscanned: 0)
    }

    /// A URL given as text, such as one found inside an error description, redacted as by
    /// ``url(_:)``.
    ///
    /// Text that does not look like a URL (one with `scheme://`, or a reference starting with
    /// `/`, `?` or `#`, and no whitespace) is redacted as free text by ``text(_:)``: any
    /// `user:pass@` and secret `name=value` pairs are replaced by the mark.
    ///
    /// - Parameter text: The URL text, in any encoding state.
    /// - Returns: The text with its secrets replaced by ``mark``.
    public func urlString(_ text: String) -> String {
        let bytes = ASCII.bytes(of: text)
        guard Self.looksLikeURL(bytes) else { return self.text(text) }
        return String(decoding: redactURL(bytes[...], depth: 0), as: UTF8.self)
    }

    /// Whether text is one URL or URL reference: no whitespace or controls, and `scheme://` or a
    /// leading `/`, `?` or `#`.
    static func looksLikeURL(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, !bytes.contains(where: { ASCII.endsURL($0) }) else { return false }
        if first == ASCII.slash || first == ASCII.question || first == ASCII.hash { return true }
        guard let colon = schemeColon(bytes[...]) else { return false }
        return bytes[(colon + 1)...].starts(with: "//".utf8)
    }

    /// The index of the `:` ending a URL's scheme, if it has one.
    static func schemeColon(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard let first = bytes.first, ASCII.isLetter(first) else { return nil }
        var index = bytes.startIndex
        while index < bytes.endIndex, ASCII.isSchemeCharacter(bytes[index]) { index += 1 }
        return index < bytes.endIndex && bytes[index] == ASCII.colon ? index : nil
    }

    /// Redacts one URL or URL reference.
    ///
    /// - Parameters:
    ///   - bytes: The URL's text.
    ///   - depth: How deeply nested this URL was found; bounds the recursion.
    /// - Returns: The redacted text.
    package func redactURL(_ bytes: ArraySlice<UInt8>, depth: Int) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        var host: ArraySlice<UInt8> = []
        if let colon = Self.schemeColon(bytes) {
            guard bytes[(colon + 1)...].starts(with: "//".utf8) else {
                // An opaque URL (`mailto:`, `token:abc`): no structure to rely on.
                return redactText(bytes, depth: depth)
            }
            output.append(contentsOf: bytes[...(colon + 2)])
            let authority = colon + 3
            index = appendCheckedAuthority(bytes, from: authority, to: &output)
            host = Self.host(of: bytes[authority..<index])
        } else if bytes.starts(with: "//".utf8) {
            output.append(contentsOf: "//".utf8)
            let authority = bytes.startIndex + 2
            index = appendCheckedAuthority(bytes, from: authority, to: &output)
            host = Self.host(of: bytes[authority..<index])
        }
        let rest = bytes[index...]
        let queryStart = rest.firstIndex { $0 == ASCII.question || $0 == ASCII.hash } ?? rest.endIndex
        // Path: each segment may be a secret of its own, or carry `;name=value` parameters.
        var path = PathSecrets(host: host)
        var segmentStart = index
        for position in index...queryStart where position == queryStart || bytes[position] == ASCII.slash {
            let segment = bytes[segmentStart..<position]
            if path.hides(segment, redaction: self) {
                output.append(contentsOf: Self.markBytes)
            } else {
                appendPairs(segment, field: .query, depth: depth, to: &output)
            }
            if position < queryStart { output.append(ASCII.slash) }
            segmentStart = position + 1
        }
        guard queryStart < bytes.endIndex else { return output }
        var fragmentStart = bytes.endIndex
        if bytes[queryStart] == ASCII.question {
            fragmentStart = bytes[queryStart...].firstIndex(of: ASCII.hash) ?? bytes.endIndex
            output.append(ASCII.question)
            appendPairs(bytes[(queryStart + 1)..<fragmentStart], field: .query, depth: depth, to: &output)
        } else {
            fragmentStart = queryStart
        }
        guard fragmentStart < bytes.endIndex else { return output }
        // The fragment: OAuth's implicit flow puts `access_token=…` there.
        output.append(ASCII.hash)
        appendPairs(bytes[(fragmentStart + 1)...], field: .query, depth: depth, to: &output)
        return output
    }

    /// The host of an authority: after any user info, before any port.
    static func host(of authority: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var host = authority
        if let at = host.lastIndex(of: ASCII.at) { host = host[(at + 1)...] }
        if host.first == ASCII.leftBracket { return host }
        if let colon = host.firstIndex(of: ASCII.colon) { host = host[..<colon] }
        return host
    }

    /// Appends the authority starting at `start` with its user info redacted, or the mark alone
    /// when its host is a shaped credential (text such as `x://xoxb-…//host/` reads as a URL
    /// whose host is the token).
    ///
    /// - Returns: Where the authority ends.
    private func appendCheckedAuthority(_ bytes: ArraySlice<UInt8>, from start: Int, to output: inout [UInt8]) -> Int {
        let before = output.count
        let end = appendAuthority(bytes, from: start, to: &output)
        let host = Self.host(of: bytes[start..<end])
        // Every built-in shape needs a run of 10 characters without a dot (`api.example.com` has
        // none); a rule of the user's may need fewer.
        if host.count >= min(SecretShapes.shortestShape, shortestTokenRule),
            Self.hasLabel(host, atLeast: min(10, shortestTokenRule)),
            hasShapedSecret(host, entropy: false)
        {
            output.removeSubrange(before...)
            output.append(contentsOf: Self.markBytes)
        }
        return end
    }

    /// Whether a host has a label (between dots) of at least `length` characters.
    static func hasLabel(_ host: ArraySlice<UInt8>, atLeast length: Int) -> Bool {
        var run = 0
        for byte in host {
            run = byte == UInt8(ascii: ".") ? 0 : run + 1
            if run >= length { return true }
        }
        return false
    }

    /// Appends the authority starting at `start` with its user info redacted.
    ///
    /// - Returns: Where the authority ends.
    private func appendAuthority(_ bytes: ArraySlice<UInt8>, from start: Int, to output: inout [UInt8]) -> Int {
        let rest = bytes[start...]
        var end = rest.firstIndex { $0 == ASCII.slash || $0 == ASCII.question || $0 == ASCII.hash } ?? rest.endIndex
        var at = bytes[start..<end].lastIndex(of: ASCII.at)
        if at == nil, Self.hasNonNumericPort(bytes[start..<end]) {
            // A password with an unencoded `/`, `?` or `#` (`https://u:pa/ss@host`): the `@` comes
            // later. Without one, what looks like a port may be a password: hide it.
            let hostEnd = rest.firstIndex { $0 == ASCII.question || $0 == ASCII.hash } ?? rest.endIndex
            if let later = bytes[start..<hostEnd].lastIndex(of: ASCII.at) {
                at = later
                end =
                    bytes[later...].firstIndex { $0 == ASCII.slash || $0 == ASCII.question || $0 == ASCII.hash }
                    ?? bytes.endIndex
            } else if let colon = bytes[start..<end].firstIndex(of: ASCII.colon) {
                output.append(contentsOf: bytes[start...colon])
                output.append(contentsOf: Self.markBytes)
                return end
            }
        }
        guard let at else {
            output.append(contentsOf: bytes[start..<end])
            return end
        }
        if at > start {
            let hasPassword = bytes[start..<at].contains(ASCII.colon)
            output.append(contentsOf: hasPassword ? Self.markPairBytes : Self.markBytes)
        }
        output.append(contentsOf: bytes[at..<end])
        return end
    }

    /// Whether an authority without `@` has a `:` followed by something other than a port.
    static func hasNonNumericPort(_ authority: ArraySlice<UInt8>) -> Bool {
        var host = authority
        if host.first == ASCII.leftBracket, let close = host.firstIndex(of: ASCII.rightBracket) {
            host = host[(close + 1)...]
        }
        guard let colon = host.firstIndex(of: ASCII.colon) else { return false }
        return !host[(colon + 1)...].allSatisfy(ASCII.isDigit)
    }
}

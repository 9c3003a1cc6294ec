extension Redaction {
    /// The most free text ``text(_:)`` scans; longer text is cut safely and the cut is noted.
    static let textScanLimit = 1 << 20

    /// Free text, such as an error's description, with its secrets redacted.
    ///
    /// Every URL found inside (`scheme://…`) is redacted as by ``urlString(_:)``; user info in a
    /// bare `user:pass@host` is replaced by the mark; the value of every `name=value`,
    /// `"name": value` and `name: value` (to the end of the line) whose name is secret under the
    /// body-field or the header rules is replaced by the mark; so is the credential after a
    /// `Bearer` or `Basic` scheme word. Text longer than 1 MiB is cut first (without ever
    /// keeping part of a secret) and ends with a note of how many bytes were left out.
    ///
    /// - Parameter text: Any text; it may contain anything.
    /// - Returns: The text with its secrets replaced by ``mark``.
    public func text(_ text: String) -> String {
        self.text(text, limit: .max)
    }

    /// Free text redacted as by ``text(_:)``, then cut to at most `limit` bytes, on a character
    /// boundary and never inside a mark, followed by a note `… (N more bytes)` when anything was
    /// left out.
    ///
    /// At most four times `limit` bytes are scanned (and never more than 1 MiB), cut safely as
    /// bodies are.
    ///
    /// - Parameter entropy: Whether random-looking tokens count as secrets (off for values whose
    ///   name says they are identifiers).
    package func text(_ text: String, limit: Int, entropy: Bool = true) -> String {
        let utf8 = text.utf8
        let limit = max(0, limit)
        let cap = min(Self.textScanLimit, Self.scanCap(limit: limit))
        if utf8.count <= min(limit, cap) {
            var text = text
            if !text.withUTF8({ mayHoldSecret($0) }) { return text }
        }
        let bytes = ASCII.bytes(of: text, upTo: cap + 1)
        let kept = SafeCut.scanPrefix(bytes[...], cap: cap)
        let redacted = mayHoldSecret(kept) ? redactText(kept, depth: 0, entropy: entropy) : Array(kept)
        let unscanned = utf8.count - kept.count
        if unscanned == 0, redacted.count <= limit, redacted.elementsEqual(kept) { return text }
        return SafeCut.render(redacted, limit: limit, unscanned: unscanned)
    }

    /// Whether any free-text rule could apply: the pair, URL and user-info rules start at a `:`,
    /// `=` or `@`, the scheme-word rule at whitespace, and a shape needs a run of token
    /// characters at least as long as the shortest shape.
    func mayHoldSecret(_ bytes: some Sequence<UInt8>) -> Bool {
        let shortest = min(SecretShapes.shortestShape, shortestTokenRule)
        var run = 0
        for byte in bytes {
            if byte == ASCII.colon || byte == ASCII.equals || byte == ASCII.at || ASCII.isWhitespace(byte) {
                return true
            }
            run = SecretShapes.isTokenByte(byte) ? run + 1 : 0
            if run >= shortest { return true }
        }
        return false
    }

    /// Applies the free-text rules to bytes.
    ///
    /// - Parameters:
    ///   - bytes: The text as UTF-8 (invalid sequences are carried through untouched).
    ///   - depth: How many encoded layers deep this text was found (a URL inside a query value
    ///     inside a URL…); bounds the recursion.
    ///   - entropy: Whether random-looking tokens count as secrets.
    /// - Returns: The redacted bytes.
    func redactText(_ bytes: ArraySlice<UInt8>, depth: Int, entropy: Bool = true) -> [UInt8] {
        var redactor = TextRedactor(redaction: self, input: Array(bytes), depth: depth, entropy: entropy)
        return redactor.run()
    }

    /// Appends bytes with every shaped secret in them replaced by the mark.
    ///
    /// - Parameters:
    ///   - bytes: Text or a value, copied through otherwise unchanged.
    ///   - entropy: Whether random-looking tokens count as secrets.
    ///   - output: Where the bytes go.
    func appendShapeRedacted(_ bytes: ArraySlice<UInt8>, entropy: Bool, to output: inout [UInt8]) {
        var spans: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { buffer in
            SecretShapes.scan(buffer, entropy: entropy, redaction: self) { spans.append($0) }
        }
        var copied = bytes.startIndex
        for span in spans {
            output.append(contentsOf: bytes[copied..<(bytes.startIndex + span.lowerBound)])
            output.append(contentsOf: Self.markBytes)
            copied = bytes.startIndex + span.upperBound
        }
        output.append(contentsOf: bytes[copied...])
    }

    /// Whether a value holds a shaped secret.
    func hasShapedSecret(_ bytes: ArraySlice<UInt8>, entropy: Bool) -> Bool {
        guard bytes.count >= min(SecretShapes.shortestShape, shortestTokenRule) else { return false }
        return bytes.withUnsafeBufferPointer { SecretShapes.containsSecret($0, entropy: entropy, redaction: self) }
    }
}

/// One forward pass over text, copying it to the output and replacing secrets as it finds them.
///
/// Work is linear in the input: look-backs are bounded, and every forward scan either moves the
/// cursor past what it scanned or fails at a bounded cost.
struct TextRedactor {
    let redaction: Redaction
    let input: [UInt8]
    let depth: Int
    /// Whether random-looking tokens count as secrets.
    let entropy: Bool
    private var output: [UInt8] = []
    /// Everything before this index is already in `output`.
    private var copied = 0
    /// `=` signs before this index lie inside a value already checked for encoded secrets.
    private var checkedUpTo = 0

    /// The longest name looked back over before `=` or `:`.
    static let nameLookBack = 512

    init(redaction: Redaction, input: [UInt8], depth: Int, entropy: Bool) {
        self.redaction = redaction
        self.input = input
        self.depth = depth
        self.entropy = entropy
    }

    /// Runs the pass.
    ///
    /// - Returns: The redacted text.
    mutating func run() -> [UInt8] {
        let count = input.count
        var index = 0
        // The current run of non-delimiters, for `user:pass@host` and `Bearer <credential>`.
        var tokenStart = 0
        var tokenHasColon = false
        while index < count {
            let byte = input[index]
            var resumeAt: Int?
            switch byte {
            case ASCII.colon:
                resumeAt = redactURL(colon: index) ?? redactPair(at: index)
                tokenHasColon = true
            case ASCII.equals:
                resumeAt = redactPair(at: index)
            case ASCII.at:
                if tokenHasColon, tokenStart >= copied, index - tokenStart > 1 {
                    replace(tokenStart..<index, with: Redaction.markPairBytes)
                }
            case UInt8(ascii: "-"):
                resumeAt = redactPrivateKeyBlock(at: index)
            default:
                if ASCII.isWhitespace(byte), tokenStart >= copied {
                    resumeAt = redactSchemeCredential(word: tokenStart..<index)
                }
            }
            if let resumeAt {
                index = redactCredential(afterWordEndingAt: resumeAt) ?? resumeAt
                tokenStart = resumeAt
                tokenHasColon = false
                continue
            }
            if ASCII.isTokenDelimiter(byte) {
                tokenStart = index + 1
                tokenHasColon = false
            }
            index += 1
        }
        if copied == 0 {
            // Nothing replaced yet: the input itself, unless a shape is found in it.
            var spans = false
            input.withUnsafeBufferPointer { buffer in
                spans = SecretShapes.containsSecret(buffer, entropy: entropy, redaction: redaction)
            }
            guard spans else { return input }
        }
        redaction.appendShapeRedacted(input[copied...], entropy: entropy, to: &output)
        return output
    }

    /// Copies the text before `range` (with its shaped secrets redacted), then the replacement.
    private mutating func replace(_ range: Range<Int>, with replacement: [UInt8]) {
        if output.isEmpty { output.reserveCapacity(input.count) }
        redaction.appendShapeRedacted(input[copied..<range.lowerBound], entropy: entropy, to: &output)
        output.append(contentsOf: replacement)
        copied = range.upperBound
    }

    // MARK: Private keys

    static let pemBegin = Array("-----BEGIN ".utf8)
    static let pemEnd = Array("-----END".utf8)
    static let pemDashes = Array("-----".utf8)

    /// Redacts the body of a PEM private key block starting at `start` (`-----BEGIN RSA PRIVATE
    /// KEY-----` … `-----END RSA PRIVATE KEY-----`), keeping its two marker lines; without an end
    /// marker, everything after the begin marker is redacted.
    ///
    /// - Returns: Where to resume, or `nil` when no private key block starts here.
    private mutating func redactPrivateKeyBlock(at start: Int) -> Int? {
        guard input[start...].starts(with: Self.pemBegin) else { return nil }
        let labelStart = start + Self.pemBegin.count
        var labelEnd = labelStart
        // An RFC 7468 label: uppercase words (`RSA PRIVATE KEY`, `OPENSSH PRIVATE KEY`); anything
        // else is left to the other rules.
        while labelEnd < input.count, labelEnd - labelStart < 64,
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(input[labelEnd]) || ASCII.isDigit(input[labelEnd])
                || input[labelEnd] == ASCII.space
        {
            labelEnd += 1
        }
        guard input[labelEnd...].starts(with: Self.pemDashes),
            SecretShapes.contains(input[labelStart..<labelEnd], SecretShapes.privateKeyWords)
        else { return nil }
        let bodyStart = labelEnd + Self.pemDashes.count
        var bodyEnd = bodyStart
        while bodyEnd < input.count,
            !(input[bodyEnd] == UInt8(ascii: "-") && input[bodyEnd...].starts(with: Self.pemEnd))
        {
            bodyEnd += 1
        }
        guard bodyEnd > bodyStart else { return nil }
        replace(bodyStart..<bodyEnd, with: Redaction.markBytes)
        return bodyEnd
    }

    // MARK: URLs

    /// Redacts a URL whose `://` starts at `colon`.
    ///
    /// - Returns: Where to resume, or `nil` when no URL starts here.
    private mutating func redactURL(colon: Int) -> Int? {
        guard colon + 2 < input.count, input[colon + 1] == ASCII.slash, input[colon + 2] == ASCII.slash else {
            return nil
        }
        var start = colon
        while start > copied, colon - start < 32, ASCII.isSchemeCharacter(input[start - 1]) { start -= 1 }
        while start < colon, !ASCII.isLetter(input[start]) { start += 1 }
        guard start < colon else { return nil }
        var end = colon + 3
        while end < input.count, !ASCII.endsURL(input[end]) { end += 1 }
        replace(start..<end, with: redaction.redactURL(input[start..<end], depth: depth))
        return end
    }

    // MARK: Pairs

    /// Redacts the value after `=` or `:` at `index` when the name before it is secret.
    ///
    /// - Returns: Where to resume, or `nil` when nothing was redacted.
    private mutating func redactPair(at index: Int) -> Int? {
        guard let (nameRange, quoted) = name(before: index) else { return nil }
        if input[index] == ASCII.colon, !quoted, isInsideURN(nameStart: nameRange.lowerBound) { return nil }
        var rawName = input[nameRange]
        var unescaped: [UInt8] = []
        if quoted, rawName.contains(ASCII.backslash) {
            // A JSON key with escapes (`"p\u0061ssword"`): judged as decoded.
            var position = rawName.startIndex
            while position < rawName.endIndex {
                if rawName[position] == ASCII.backslash {
                    position = JSONEscaping.decodeEscape(rawName, at: position, into: &unescaped)
                } else {
                    unescaped.append(rawName[position])
                    position += 1
                }
            }
            rawName = unescaped[...]
        }
        let (name, settled) = RedactionNames.decodedName(rawName, plusIsSpace: false)
        guard !settled || redaction.isSecretTextName(name) else { return redactEncodedSecret(at: index) }
        let value: Range<Int>
        if input[index] == ASCII.equals {
            value = valueAfterEquals(from: index + 1)
            if isErrorCode(name: nameRange, value: value) { return nil }
        } else if quoted {
            value = valueAfterQuotedName(from: index + 1)
        } else {
            value = valueToEndOfLine(from: index + 1, nameStart: nameRange.lowerBound)
        }
        guard !value.isEmpty else { return nil }
        let end = privateKeyBlockEnd(startingAt: value.lowerBound) ?? value.upperBound
        replace(value.lowerBound..<max(end, value.upperBound), with: Redaction.markBytes)
        return max(end, value.upperBound)
    }

    /// Where a PEM private key block starting at `start` ends (after its end marker's line, or
    /// at the end of the text), so that a value that opens one takes all of it.
    private func privateKeyBlockEnd(startingAt start: Int) -> Int? {
        guard input[start...].starts(with: Self.pemBegin) else { return nil }
        var end = start + Self.pemBegin.count
        while end < input.count, !(input[end] == UInt8(ascii: "-") && input[end...].starts(with: Self.pemEnd)) {
            end += 1
        }
        while end < input.count, !isLineBreak(input[end]) { end += 1 }
        return end
    }

    /// Redacts the value after a `=` whose name is not secret when the value is percent-encoded
    /// and, decoded, hides a secret (`next=https%3A%2F%2Fx%2F%3Fcode%3Dabc`).
    ///
    /// A value is checked once: the `=` signs inside it are not checked again, which keeps the
    /// work linear.
    ///
    /// - Returns: Where to resume, or `nil` when nothing was redacted.
    private mutating func redactEncodedSecret(at index: Int) -> Int? {
        guard input[index] == ASCII.equals, index >= checkedUpTo else { return nil }
        let start = skip(from: index + 1, newlines: false)
        // Quoted and bracketed values are left to the scan (finding their end could cost the
        // rest of the input, once per `=`).
        guard start < input.count,
            ![ASCII.quote, ASCII.apostrophe, ASCII.leftBrace, ASCII.leftBracket].contains(input[start])
        else { return nil }
        let value = valueAfterEquals(from: index + 1)
        checkedUpTo = value.upperBound
        guard input[value].contains(UInt8(ascii: "%")), redaction.valueHidesSecret(input[value], depth: depth) else {
            return nil
        }
        replace(value, with: Redaction.markBytes)
        return value.upperBound
    }

    /// The name before a `=` or `:`: a quoted string, or a run of name characters.
    private func name(before index: Int) -> (Range<Int>, quoted: Bool)? {
        var end = index
        while end > copied, index - end < 8, ASCII.isSpaceOrTab(input[end - 1]) { end -= 1 }
        guard end > copied else { return nil }
        let last = input[end - 1]
        if last == ASCII.quote || last == ASCII.apostrophe {
            var open = end - 2
            while open >= copied, end - open < Self.nameLookBack {
                let byte = input[open]
                if byte == last, open == 0 || input[open - 1] != ASCII.backslash { return (open + 1..<end - 1, true) }
                if byte == ASCII.lineFeed { return nil }
                open -= 1
            }
            return nil
        }
        var start = end
        while start > copied, end - start < Self.nameLookBack, ASCII.isNameCharacter(input[start - 1]) { start -= 1 }
        return start < end ? (start..<end, false) : nil
    }

    /// Whether the name before a `:` is a part of a URN (`urn:ietf:params:oauth:grant-type:…`),
    /// whose colons separate parts, not names from values.
    private func isInsideURN(nameStart: Int) -> Bool {
        var start = nameStart
        while start > 0, nameStart - start < 256,
            ASCII.isNameCharacter(input[start - 1]) || input[start - 1] == ASCII.colon
        {
            start -= 1
        }
        guard nameStart - start >= 4 else { return false }
        return input[start..<start + 4].map { $0 | 0x20 }.elementsEqual("urn:".utf8)
    }

    /// `Code=-1001` right after `Domain=…` is an `NSError`'s code, not an OAuth code.
    private func isErrorCode(name: Range<Int>, value: Range<Int>) -> Bool {
        guard input[name].elementsEqual("Code".utf8), !value.isEmpty, value.count <= 12 else { return false }
        let digits = input[value].drop { $0 == UInt8(ascii: "-") }
        guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit) else { return false }
        guard name.lowerBound >= 1, input[name.lowerBound - 1] == ASCII.space else { return false }
        var start = name.lowerBound - 1
        while start > 0, name.lowerBound - start < 256, !ASCII.isWhitespace(input[start - 1]) { start -= 1 }
        return input[start..<name.lowerBound].starts(with: "Domain=".utf8)
    }

    /// The value of `name=value`: quoted, bracketed, or up to `&`, whitespace, a quote, `,`, `;`
    /// or `)`. A lone scheme word (`token=Bearer abc`) takes the word after it along.
    private func valueAfterEquals(from start: Int) -> Range<Int> {
        let value = skip(from: start, newlines: false)
        guard value < input.count else { return value..<value }
        if let special = quotedOrBracketed(at: value) { return special }
        var end = value
        while end < input.count, !ASCII.endsEqualsValue(input[end]) { end += 1 }
        if end - value <= 12, end + 1 < input.count, input[end] == ASCII.space,
            input[value..<end].allSatisfy(ASCII.isLetter), !ASCII.endsEqualsValue(input[end + 1])
        {
            end += 1
            while end < input.count, !ASCII.endsEqualsValue(input[end]) { end += 1 }
        }
        return value..<end
    }

    /// The value of `"name": value`: quoted, bracketed, or up to `,`, `}`, `]` or whitespace.
    private func valueAfterQuotedName(from start: Int) -> Range<Int> {
        let value = skip(from: start, newlines: true)
        guard value < input.count else { return value..<value }
        if let special = quotedOrBracketed(at: value) { return special }
        var end = value
        while end < input.count, !ASCII.endsJSONValue(input[end]) { end += 1 }
        return value..<end
    }

    /// The value of `name: value`: quoted, bracketed, or up to the end of the line, and then every
    /// following line indented more than the name's own (a folded header, a YAML block such as
    /// `key: |` and its lines). When nothing follows the name on its line, the value is on the
    /// next: the indented block, or else the next line whole (`password:` then `hunter2`).
    private func valueToEndOfLine(from start: Int, nameStart: Int) -> Range<Int> {
        let value = skip(from: start, newlines: false)
        guard value < input.count else { return value..<value }
        if let special = quotedOrBracketed(at: value) { return special }
        var end = value
        while end < input.count, !isLineBreak(input[end]) { end += 1 }
        let indentation = self.indentation(ofLineAt: nameStart)
        var valueStart = value
        var blockEnd = end
        var next = lineStart(after: end)
        // The block: the following lines indented more than the name's line (blank lines inside
        // a block belong to it).
        while let line = next {
            let content = skip(from: line, newlines: false)
            if content < input.count, isLineBreak(input[content]) {
                next = lineStart(after: content)
                continue
            }
            guard content - line > indentation, content < input.count else { break }
            if valueStart == end { valueStart = content }
            blockEnd = content
            while blockEnd < input.count, !isLineBreak(input[blockEnd]) { blockEnd += 1 }
            next = lineStart(after: blockEnd)
        }
        if valueStart == end, blockEnd == end, let line = lineStart(after: end) {
            // Nothing on the name's line and no indented block: the next line is the value.
            let content = skip(from: line, newlines: false)
            var lineEnd = content
            while lineEnd < input.count, !isLineBreak(input[lineEnd]) { lineEnd += 1 }
            return content..<lineEnd
        }
        return valueStart..<blockEnd
    }

    private func isLineBreak(_ byte: UInt8) -> Bool {
        byte == ASCII.lineFeed || byte == ASCII.carriageReturn
    }

    /// The start of the line after the line break at `end` (`\n`, `\r\n` or `\r`), if any.
    private func lineStart(after end: Int) -> Int? {
        guard end < input.count else { return nil }
        var start = end
        if input[start] == ASCII.carriageReturn { start += 1 }
        if start < input.count, input[start] == ASCII.lineFeed { start += 1 }
        return start < input.count ? start : nil
    }

    /// How many spaces and tabs start the line holding `position` (looking back a bounded way).
    private func indentation(ofLineAt position: Int) -> Int {
        var lineStart = position
        while lineStart > 0, position - lineStart < 256, !isLineBreak(input[lineStart - 1]) { lineStart -= 1 }
        var count = 0
        while lineStart + count < position, ASCII.isSpaceOrTab(input[lineStart + count]) { count += 1 }
        return count
    }

    /// Skips spaces and tabs (and line breaks if asked), a bounded number.
    private func skip(from start: Int, newlines: Bool) -> Int {
        var index = start
        while index < input.count, index - start < 64,
            ASCII.isSpaceOrTab(input[index]) || (newlines && ASCII.isWhitespace(input[index]))
        {
            index += 1
        }
        return index
    }

    /// A quoted value's contents (to the closing quote, the end of the line or the end), or a
    /// bracketed value whole (to its matching bracket, or the end).
    private func quotedOrBracketed(at start: Int) -> Range<Int>? {
        let opening = input[start]
        if opening == ASCII.quote || opening == ASCII.apostrophe {
            var end = start + 1
            while end < input.count, input[end] != opening, input[end] != ASCII.lineFeed {
                end += input[end] == ASCII.backslash ? 2 : 1
            }
            return start + 1..<min(end, input.count)
        }
        guard opening == ASCII.leftBrace || opening == ASCII.leftBracket else { return nil }
        var nesting = 0
        var inString = false
        var end = start
        while end < input.count {
            let byte = input[end]
            if inString {
                if byte == ASCII.backslash { end += 1 } else if byte == ASCII.quote { inString = false }
            } else if byte == ASCII.quote {
                inString = true
            } else if byte == ASCII.leftBrace || byte == ASCII.leftBracket {
                nesting += 1
            } else if byte == ASCII.rightBrace || byte == ASCII.rightBracket {
                nesting -= 1
                if nesting == 0 { return start..<end + 1 }
            }
            end += 1
        }
        return start..<input.count
    }

    // MARK: Scheme words

    /// Redacts the credential after a `Bearer` or `Basic` word that ends a range just redacted
    /// (`"auth": Bearer abc…`, `token=x Bearer abc…`, `https://h/Bearer abc…`). The scan resumes
    /// after such a range, so the rule for scheme words would never see that word.
    ///
    /// - Returns: Where to resume, or `nil` when nothing was redacted.
    private mutating func redactCredential(afterWordEndingAt end: Int) -> Int? {
        guard end < input.count, ASCII.isSpaceOrTab(input[end]) else { return nil }
        var start = end
        while start > 0, end - start < 7, ASCII.isLetter(input[start - 1]) { start -= 1 }
        return redactSchemeCredential(word: start..<end)
    }

    /// Redacts the credential after a `Bearer` or `Basic` word ending at the whitespace after
    /// `word`, when it is at least eight characters of a token68.
    ///
    /// - Returns: Where to resume, or `nil` when nothing was redacted.
    private mutating func redactSchemeCredential(word: Range<Int>) -> Int? {
        guard word.count == 6 || word.count == 5 else { return nil }
        let lowered = input[word].map { $0 | 0x20 }
        guard lowered.elementsEqual("bearer".utf8) || lowered.elementsEqual("basic".utf8) else { return nil }
        let start = skip(from: word.upperBound, newlines: false)
        var end = start
        while end < input.count, ASCII.isToken68(input[end]) { end += 1 }
        guard end - start >= 8 else { return nil }
        replace(start..<end, with: Redaction.markBytes)
        return end
    }
}

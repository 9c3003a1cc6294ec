extension Redaction {
    /// Redacts XML text (SOAP envelopes, XML APIs, Atom) in one forward pass, without building a
    /// document.
    ///
    /// An element or attribute whose local name (after any namespace prefix: `m:access_token`
    /// is `access_token`) is secret by the body-field rules has its content replaced by the mark:
    /// everything between `<password>` and `</password>`, CDATA and nested elements included; an
    /// attribute's value between its quotes. Every other text, attribute value and comment is
    /// redacted as free text (a URL with a token, a shaped credential). Markup is copied as it was.
    ///
    /// Text that stops being XML (a tag never closed, a body cut short) keeps what was redacted
    /// so far and the free-text rules take the rest; a secret element still open at the end shows
    /// the mark and nothing after it.
    ///
    /// - Parameter bytes: The XML text (possibly cut short).
    /// - Returns: The redacted text.
    func redactXML(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var redactor = XMLRedactor(redaction: self, input: bytes)
        return redactor.run()
    }

    /// Whether a media type (or, without one, the body's first bytes) says XML: `…/xml`, `…+xml`,
    /// or no type and a body opening with `<?xml`.
    static func isXML(mediaType: String?, bytes: ArraySlice<UInt8>) -> Bool {
        if let mediaType { return mediaType.hasSuffix("/xml") || mediaType.hasSuffix("+xml") }
        let start = bytes.firstIndex { !ASCII.isWhitespace($0) } ?? bytes.endIndex
        return bytes[start...].starts(with: "<?xml".utf8)
    }
}

/// The state of one pass of ``Redaction/redactXML(_:)``.
struct XMLRedactor {
    let redaction: Redaction
    let input: ArraySlice<UInt8>
    private var output: [UInt8] = []
    private var index: Int

    init(redaction: Redaction, input: ArraySlice<UInt8>) {
        self.redaction = redaction
        self.input = input
        index = input.startIndex
        output.reserveCapacity(input.count)
    }

    mutating func run() -> [UInt8] {
        while index < input.endIndex {
            guard input[index] == ASCII.lessThan else {
                let end = input[index...].firstIndex(of: ASCII.lessThan) ?? input.endIndex
                text(index..<end)
                index = end
                continue
            }
            let rest = input[index...]
            let handled: Bool
            if rest.starts(with: "<!--".utf8) {
                handled = delimited(open: 4, close: "-->", redactingInside: true)
            } else if rest.starts(with: "<![CDATA[".utf8) {
                handled = delimited(open: 9, close: "]]>", redactingInside: true)
            } else if rest.starts(with: "<?".utf8) || rest.starts(with: "<!".utf8) {
                handled = delimited(open: 2, close: ">", redactingInside: false)
            } else {
                handled = tag()
            }
            guard handled else {
                // Not XML from here on: the free-text rules take the rest.
                output += redaction.redactText(input[index...], depth: 0)
                index = input.endIndex
                break
            }
        }
        return output
    }

    /// Text between tags, redacted as free text.
    private mutating func text(_ range: Range<Int>) {
        let slice = input[range]
        guard redaction.mayHoldSecret(slice) else {
            output += slice
            return
        }
        output += redaction.redactText(slice, depth: 0)
    }

    /// A comment, CDATA section, processing instruction or declaration: copied, its inside
    /// redacted as free text when asked. `false` when it never closes.
    private mutating func delimited(open: Int, close: String, redactingInside: Bool) -> Bool {
        let start = index + open
        guard let end = Self.find(Array(close.utf8), in: input[start...]) else { return false }
        output += input[index..<start]
        if redactingInside { text(start..<end) } else { output += input[start..<end] }
        output += close.utf8
        index = end + close.utf8.count
        return true
    }

    /// A start or end tag, with its attributes judged; a secret element's content is replaced.
    /// `false` when the tag never closes.
    private mutating func tag() -> Bool {
        var cursor = index + 1
        let closing = cursor < input.endIndex && input[cursor] == ASCII.slash
        if closing { cursor += 1 }
        let nameStart = cursor
        while cursor < input.endIndex, Self.isNameByte(input[cursor]) { cursor += 1 }
        let name = input[nameStart..<cursor]
        guard !name.isEmpty else {
            // A `<` that starts no tag (`a < b` in text): copy it as text.
            output.append(ASCII.lessThan)
            index += 1
            return true
        }
        output += input[index..<cursor]
        guard let end = attributes(from: cursor) else { return false }
        let selfClosing = end > cursor && input[end - 1] == ASCII.slash
        index = end + 1
        if !closing, !selfClosing, isSecret(name) { secretContent(of: name) }
        return true
    }

    /// Copies the attributes from `cursor` up to the tag's `>`, secret ones' values replaced;
    /// returns where the `>` is, or `nil` when there is none.
    private mutating func attributes(from start: Int) -> Int? {
        var cursor = start
        while cursor < input.endIndex {
            let byte = input[cursor]
            if byte == ASCII.greaterThan {
                output.append(byte)
                return cursor
            }
            guard Self.isNameByte(byte) else {
                output.append(byte)
                cursor += 1
                continue
            }
            let nameStart = cursor
            while cursor < input.endIndex, Self.isNameByte(input[cursor]) { cursor += 1 }
            let name = input[nameStart..<cursor]
            output += name
            var equals = cursor
            while equals < input.endIndex, ASCII.isWhitespace(input[equals]) { equals += 1 }
            guard equals < input.endIndex, input[equals] == ASCII.equals else { continue }
            var quote = equals + 1
            while quote < input.endIndex, ASCII.isWhitespace(input[quote]) { quote += 1 }
            guard quote < input.endIndex, input[quote] == ASCII.quote || input[quote] == ASCII.apostrophe else {
                cursor = equals
                continue
            }
            guard let close = input[(quote + 1)...].firstIndex(of: input[quote]) else { return nil }
            output += input[cursor...quote]
            if isSecret(name) {
                output += Redaction.mark.utf8
            } else {
                text((quote + 1)..<close)
            }
            output.append(input[quote])
            cursor = close + 1
        }
        return nil
    }

    /// Skips a secret element's content up to its matching end tag, writing the mark instead;
    /// an element never closed hides everything after its start tag.
    private mutating func secretContent(of name: ArraySlice<UInt8>) {
        output += Redaction.mark.utf8
        var depth = 0
        var cursor = index
        while let open = input[cursor...].firstIndex(of: ASCII.lessThan) {
            var after = open + 1
            let closing = after < input.endIndex && input[after] == ASCII.slash
            if closing { after += 1 }
            let nameEnd = after + name.count
            let sameName =
                nameEnd <= input.endIndex && input[after..<nameEnd].elementsEqual(name)
                && (nameEnd == input.endIndex || !Self.isNameByte(input[nameEnd]))
            cursor = open + 1
            guard sameName else { continue }
            if !closing {
                depth += 1
            } else if depth == 0 {
                index = open
                return
            } else {
                depth -= 1
            }
        }
        index = input.endIndex
    }

    /// Whether an element or attribute name is secret, judged by its local part. An element named
    /// as a message (`TokenResponse`, `ChangePasswordRequest`, `m:AuthResult`) is a wrapper, never
    /// secret as a whole: its children are judged by their own names.
    private func isSecret(_ name: ArraySlice<UInt8>) -> Bool {
        let local = name.lastIndex(of: ASCII.colon).map { name[($0 + 1)...] } ?? name
        guard !local.isEmpty, redaction.isSecretBodyField(local) else { return false }
        return !local.withUnsafeBufferPointer(Self.namesMessage)
    }

    /// Whether a name's last word says it is a message: `…Request`, `…Response`, `…Result`,
    /// `…Reply`.
    static func namesMessage(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = WordScanner(name)
        var last: Word?
        while let word = scanner.next() { last = word.value }
        guard let last else { return false }
        return messageWords.contains(last)
    }

    static let messageWords = ["request", "response", "result", "reply"].map(Word.init)

    private static func isNameByte(_ byte: UInt8) -> Bool {
        ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == ASCII.colon || byte >= 0x80
    }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first else { return nil }
        var cursor = haystack.startIndex
        while let candidate = haystack[cursor...].firstIndex(of: first) {
            if haystack[candidate...].starts(with: needle) { return candidate }
            cursor = candidate + 1
        }
        return nil
    }
}

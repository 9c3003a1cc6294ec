extension Redaction {
    /// Redacts JSON text in one forward pass, at any size and without building a document.
    ///
    /// Keys are read with their escapes decoded (`"p\u0061ssword"` is `password`) and judged by
    /// the body-field rules: a secret key's value — a string, a number, an object or an array — is
    /// replaced by `"<redacted>"`. Every other string is decoded and redacted as free text (a URL
    /// with a token, a shaped credential, `password=…` inside it), random-looking tokens counting
    /// unless its key names an identifier; a key that is itself a shaped secret is replaced too.
    /// Everything else is copied as it was: layout, key order, number spellings.
    ///
    /// Text that stops being JSON part of the way (`{"password": "x", oops}`), or that was cut,
    /// keeps what was redacted so far and the free-text rules take the rest.
    ///
    /// - Parameter bytes: The JSON text (possibly cut short).
    /// - Returns: The redacted text.
    func redactJSON(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var redactor = JSONRedactor(redaction: self, input: bytes)
        return redactor.run()
    }
}

/// The state of one pass of ``Redaction/redactJSON(_:)``.
struct JSONRedactor {
    /// What is expected next inside a container.
    enum Expect {
        case keyOrEnd, colon, value, commaOrEnd
    }

    /// An open object or array, and how the values in it are to be judged.
    struct Frame {
        let isObject: Bool
        var expect: Expect
        /// The judgement of the current key (objects) or inherited from the container's own key
        /// (arrays).
        var key: KeyKind
    }

    /// How a key makes its value judged.
    enum KeyKind {
        /// Nothing special: strings are redacted as text, random-looking tokens count.
        case plain
        /// The key names an identifier, a hash or a nonce: random-looking tokens do not count.
        case identifier
        /// The key is secret: the value is replaced whole.
        case secret
    }

    let redaction: Redaction
    let input: ArraySlice<UInt8>
    private var output: [UInt8] = []
    private var stack: [Frame] = []
    private var index: Int
    /// Where the top-level value stands, outside every container.
    private var topKey = KeyKind.plain

    init(redaction: Redaction, input: ArraySlice<UInt8>) {
        self.redaction = redaction
        self.input = input
        index = input.startIndex
        output.reserveCapacity(input.count)
    }

    mutating func run() -> [UInt8] {
        while index < input.endIndex {
            let byte = input[index]
            if ASCII.isWhitespace(byte) {
                output.append(byte)
                index += 1
                continue
            }
            guard step(byte) else {
                // Not JSON from here on: the free-text rules take the rest.
                output += redaction.redactText(input[index...], depth: 0)
                return output
            }
        }
        return output
    }

    /// Handles the token starting with `byte`; `false` when it breaks the JSON grammar.
    private mutating func step(_ byte: UInt8) -> Bool {
        guard var frame = stack.last else {
            // Top level (several values in a row are allowed: JSON lines).
            return value(byte, key: topKey)
        }
        switch frame.expect {
        case .keyOrEnd:
            if byte == ASCII.rightBrace { return close(byte) }
            guard byte == ASCII.quote else { return false }
            frame.key = key()
            frame.expect = .colon
        case .colon:
            guard byte == ASCII.colon else { return false }
            output.append(byte)
            index += 1
            frame.expect = .value
        case .value:
            if !frame.isObject, byte == ASCII.rightBracket { return close(byte) }
            frame.expect = .commaOrEnd
            stack[stack.count - 1] = frame
            return value(byte, key: frame.key)
        case .commaOrEnd:
            if byte == ASCII.rightBrace || byte == ASCII.rightBracket { return close(byte) }
            guard byte == UInt8(ascii: ",") else { return false }
            output.append(byte)
            index += 1
            frame.expect = frame.isObject ? .keyOrEnd : .value
        }
        stack[stack.count - 1] = frame
        return true
    }

    /// Closes the innermost container with `byte` when it matches.
    private mutating func close(_ byte: UInt8) -> Bool {
        guard let frame = stack.last, frame.isObject == (byte == ASCII.rightBrace) else { return false }
        stack.removeLast()
        output.append(byte)
        index += 1
        return true
    }

    /// A value: a string, a container, or a scalar.
    private mutating func value(_ byte: UInt8, key: KeyKind) -> Bool {
        if key == .secret {
            skipValue()
            output += Self.quotedMark
            return true
        }
        switch byte {
        case ASCII.quote:
            string(entropy: key != .identifier)
        case ASCII.leftBrace, ASCII.leftBracket:
            output.append(byte)
            index += 1
            stack.append(
                Frame(isObject: byte == ASCII.leftBrace, expect: byte == ASCII.leftBrace ? .keyOrEnd : .value, key: key)
            )
        case ASCII.rightBrace, ASCII.rightBracket, ASCII.colon, UInt8(ascii: ","):
            return false
        default:
            let start = index
            while index < input.endIndex, !Self.endsScalar(input[index]) { index += 1 }
            // Numbers, `true`, `false`, `null`: anything else is not JSON.
            guard Self.isScalar(input[start..<index]) else {
                index = start
                return false
            }
            output += input[start..<index]
        }
        return true
    }

    static let literals: [[UInt8]] = ["true", "false", "null"].map { Array($0.utf8) }

    /// A number (digits, signs, `.`, exponents; `1e400` too) or `true`, `false`, `null`.
    static func isScalar(_ bytes: ArraySlice<UInt8>) -> Bool {
        if literals.contains(where: { bytes.elementsEqual($0) }) { return true }
        return !bytes.isEmpty
            && bytes.allSatisfy {
                ASCII.isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: ".")
                    || $0 | 0x20 == UInt8(ascii: "e")
            }
    }

    static let quotedMark: [UInt8] = Array("\"\(Redaction.mark)\"".utf8)

    static func endsScalar(_ byte: UInt8) -> Bool {
        ASCII.isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == ASCII.rightBrace
            || byte == ASCII.rightBracket || byte == ASCII.colon || byte == ASCII.quote
    }

    /// Reads a key at `index` (its opening quote), copies it (or the mark, when the key itself is
    /// a shaped secret) and judges it.
    private mutating func key() -> KeyKind {
        let (range, decoded) = readString()
        let (name, settled) = RedactionNames.decodedName(decoded[...], plusIsSpace: false)
        if redaction.hasShapedSecret(decoded[...], entropy: false) {
            output += Self.quotedMark
        } else {
            output += input[range]
        }
        if !settled || redaction.isSecretBodyField(name) { return .secret }
        return name.withUnsafeBufferPointer(RedactionLexicon.namesIdentifier) ? .identifier : .plain
    }

    /// Reads a string value at `index` and copies it, redacted as free text.
    private mutating func string(entropy: Bool) {
        let (range, decoded) = readString()
        guard redaction.mayHoldSecret(decoded) else {
            output += input[range]
            return
        }
        let redacted = redaction.redactText(decoded[...], depth: 0, entropy: entropy)
        if redacted == decoded {
            output += input[range]
        } else {
            output.append(ASCII.quote)
            JSONEscaping.append(redacted, to: &output)
            output.append(ASCII.quote)
        }
    }

    /// Reads the string starting at `index`: its range (quotes included, when it is closed) and
    /// its decoded bytes. Moves `index` past it.
    private mutating func readString() -> (Range<Int>, [UInt8]) {
        let start = index
        var decoded: [UInt8] = []
        index += 1
        while index < input.endIndex {
            let byte = input[index]
            if byte == ASCII.quote {
                index += 1
                return (start..<index, decoded)
            }
            if byte == ASCII.backslash {
                index = JSONEscaping.decodeEscape(input, at: index, into: &decoded)
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return (start..<index, decoded)
    }

    /// Moves `index` past the value starting there (a string, a container with everything in
    /// it, or a scalar), without copying it.
    private mutating func skipValue() {
        guard index < input.endIndex else { return }
        let first = input[index]
        if first == ASCII.quote {
            _ = readString()
            return
        }
        guard first == ASCII.leftBrace || first == ASCII.leftBracket else {
            while index < input.endIndex, !Self.endsScalar(input[index]) { index += 1 }
            return
        }
        var depth = 0
        var inString = false
        while index < input.endIndex {
            let byte = input[index]
            index += 1
            if inString {
                if byte == ASCII.backslash {
                    index += 1
                } else if byte == ASCII.quote {
                    inString = false
                }
            } else if byte == ASCII.quote {
                inString = true
            } else if byte == ASCII.leftBrace || byte == ASCII.leftBracket {
                depth += 1
            } else if byte == ASCII.rightBrace || byte == ASCII.rightBracket {
                depth -= 1
                if depth == 0 { return }
            }
        }
        index = min(index, input.endIndex)
    }
}

/// JSON string escapes, both ways.
enum JSONEscaping {
    /// Decodes the escape at `start` (a backslash) into `decoded`.
    ///
    /// - Returns: The index after the escape.
    static func decodeEscape(_ input: ArraySlice<UInt8>, at start: Int, into decoded: inout [UInt8]) -> Int {
        guard start + 1 < input.endIndex else { return input.endIndex }
        let kind = input[start + 1]
        switch kind {
        case UInt8(ascii: "n"): decoded.append(ASCII.lineFeed)
        case UInt8(ascii: "t"): decoded.append(ASCII.tab)
        case UInt8(ascii: "r"): decoded.append(ASCII.carriageReturn)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "u"):
            guard var scalar = hex4(input, at: start + 2) else {
                decoded.append(kind)
                return start + 2
            }
            var end = start + 6
            if (0xD800..<0xDC00).contains(scalar), end + 1 < input.endIndex, input[end] == ASCII.backslash,
                input[end + 1] == UInt8(ascii: "u"), let low = hex4(input, at: end + 2), (0xDC00..<0xE000).contains(low)
            {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                end += 6
            }
            appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &decoded)
            return end
        default: decoded.append(kind)
        }
        return start + 2
    }

    /// The value of four hex digits at `start`, if there are four.
    static func hex4(_ input: ArraySlice<UInt8>, at start: Int) -> UInt32? {
        guard start + 4 <= input.endIndex else { return nil }
        var value: UInt32 = 0
        for byte in input[start..<start + 4] {
            guard let digit = PercentDecoding.hexValue(byte) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        var text = ""
        text.unicodeScalars.append(scalar)
        output += text.utf8
    }

    /// Appends bytes as the inside of a JSON string: quotes, backslashes and control characters
    /// escaped.
    static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        for byte in bytes {
            switch byte {
            case ASCII.quote, ASCII.backslash:
                output.append(ASCII.backslash)
                output.append(byte)
            case ASCII.lineFeed: output += [ASCII.backslash, UInt8(ascii: "n")]
            case ASCII.carriageReturn: output += [ASCII.backslash, UInt8(ascii: "r")]
            case ASCII.tab: output += [ASCII.backslash, UInt8(ascii: "t")]
            case 0..<0x20:
                output += Array("\\u00".utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
    }
}

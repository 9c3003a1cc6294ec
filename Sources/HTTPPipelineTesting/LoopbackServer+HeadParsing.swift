import HTTPPipeline

extension LoopbackServer.RequestParser {
    /// Parses a request head whose lines are known to end in CRLF, blank line included.
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Head {
        var lines = bytes.split(separator: .lf, omittingEmptySubsequences: false).map { $0.dropLast() }
        // Drop the blank line that ends the head (and the empty piece after its LF), and any blank
        // lines before the request line, which RFC 9112 lets a server ignore.
        lines.removeLast(2)
        guard let requestLineIndex = lines.firstIndex(where: { !$0.isEmpty }) else {
            throw Failure(reason: "empty request head")
        }
        let (method, target, minorVersion) = try parseRequestLine(lines[requestLineIndex])
        let fieldLines = lines[(requestLineIndex + 1)...]
        guard fieldLines.count <= maxHeaderCount else {
            throw Failure(reason: "more than \(maxHeaderCount) header fields")
        }
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(fieldLines.count)
        for line in fieldLines {
            headers.append(try parseField(line))
        }
        let framing = try framing(of: headers, minorVersion: minorVersion)
        let connection = tokens(in: headers, named: "connection")
        let keepAlive = minorVersion >= 1 ? !connection.contains("close") : connection.contains("keep-alive")
        let expect = tokens(in: headers, named: "expect")
        return Head(
            method: method,
            target: target,
            headers: headers,
            framing: framing,
            keepAlive: keepAlive,
            expectsContinue: minorVersion >= 1 && expect == ["100-continue"] && framing != .none
        )
    }

    /// Parses `METHOD SP target SP HTTP/1.x`.
    private static func parseRequestLine(
        _ line: ArraySlice<UInt8>
    ) throws(Failure) -> (method: String, target: String, minorVersion: Int) {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw Failure(reason: "request line is not three parts") }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        guard HTTPGrammar.isToken(method) else {
            throw Failure(reason: "method is not a token")
        }
        guard !target.isEmpty, target.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Failure(reason: "request target is empty or has invalid characters")
        }
        guard
            target.first == UInt8(ascii: "/") || target.elementsEqual("*".utf8)
                || isAbsoluteForm(target)
        else {
            throw Failure(reason: "request target is not origin, absolute or asterisk form")
        }
        let prefix = Array("HTTP/1.".utf8)
        guard version.count == prefix.count + 1, version.starts(with: prefix),
            let minor = version.last, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(minor)
        else {
            throw Failure(reason: "version is not HTTP/1.x")
        }
        return (ascii(method), ascii(target), Int(minor - UInt8(ascii: "0")))
    }

    /// Whether a target starts with `http://` or `https://`, in any case.
    private static func isAbsoluteForm(_ target: ArraySlice<UInt8>) -> Bool {
        let lowered = ascii(target.prefix(8)).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// Parses `name: value`, trimming spaces and tabs around the value.
    private static func parseField(_ line: ArraySlice<UInt8>) throws(Failure) -> (name: String, value: String) {
        guard let first = line.first, first != .space, first != .tab else {
            throw Failure(reason: "obsolete line folding")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw Failure(reason: "header field without a colon")
        }
        let name = line[..<colon]
        guard HTTPGrammar.isToken(name) else {
            throw Failure(reason: "header field name is not a token")
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == .space || byte == .tab { value.removeFirst() }
        while let byte = value.last, byte == .space || byte == .tab { value.removeLast() }
        guard value.allSatisfy({ $0 == .tab || (0x20...0x7E).contains($0) || $0 >= 0x80 }) else {
            throw Failure(reason: "header field value has a control character")
        }
        return (ascii(name), text(value))
    }

    /// Works out how the body is framed, refusing ambiguous or unsupported framing.
    private static func framing(
        of headers: [(name: String, value: String)],
        minorVersion: Int
    ) throws(Failure) -> Framing {
        let transferEncodings = headers.filter { $0.name.lowercased() == "transfer-encoding" }
        let contentLengths = headers.filter { $0.name.lowercased() == "content-length" }
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else {
                throw Failure(reason: "both Content-Length and Transfer-Encoding")
            }
            guard minorVersion >= 1 else { throw Failure(reason: "Transfer-Encoding in HTTP/1.0") }
            guard tokens(in: headers, named: "transfer-encoding") == ["chunked"] else {
                throw Failure(reason: "Transfer-Encoding other than chunked")
            }
            return .chunked
        }
        guard !contentLengths.isEmpty else { return .none }
        let values = Set(
            contentLengths.flatMap { field in
                field.value.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
            })
        guard values.count == 1, let value = values.first, (1...18).contains(value.utf8.count),
            value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let length = Int(value)
        else {
            throw Failure(reason: "invalid or conflicting Content-Length")
        }
        guard length <= maxBodyBytes else { throw Failure(reason: "body exceeds \(maxBodyBytes) bytes") }
        return .length(length)
    }

    /// Parses a chunk-size line (without its CRLF): hex digits, then optional `;` extensions.
    static func parseChunkSize(_ line: ArraySlice<UInt8>) throws(Failure) -> Int {
        let digits = line.prefix { isHexDigit($0) }
        guard !digits.isEmpty, digits.count <= 15 else { throw Failure(reason: "invalid chunk size") }
        var rest = line.dropFirst(digits.count)
        while let byte = rest.first, byte == .space || byte == .tab { rest.removeFirst() }
        guard rest.isEmpty || rest.first == UInt8(ascii: ";") else {
            throw Failure(reason: "invalid chunk size")
        }
        guard let size = Int(ascii(digits), radix: 16) else { throw Failure(reason: "invalid chunk size") }
        return size
    }

    // MARK: Characters

    /// The lowercased, comma-separated tokens of every field with a name, empty ones dropped.
    private static func tokens(in headers: [(name: String, value: String)], named name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name }.flatMap { field in
            field.value.split(separator: ",").map { trimmed($0).lowercased() }.filter { !$0.isEmpty }
        }
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default:
            false
        }
    }

    /// Bytes already checked to be ASCII, as a string.
    private static func ascii(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// A field value as UTF-8 when it is valid UTF-8, otherwise as ISO 8859-1 (obs-text).
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(validating: bytes, as: UTF8.self)
            ?? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}

extension UInt8 {
    fileprivate static let lf = UInt8(ascii: "\n")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let tab = UInt8(ascii: "\t")
}

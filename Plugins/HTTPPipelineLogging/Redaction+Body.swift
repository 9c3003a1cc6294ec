public import Foundation

extension Redaction {
    /// However large the limit, a body is never scanned past this many bytes (unless the limit
    /// itself is larger).
    static let bodyScanCeiling = 4 << 20

    /// A body as it should appear in the log.
    ///
    /// - JSON (a JSON content type, or none and a body starting with `{` or `[`): the value of
    ///   every secret field is replaced by the mark at any depth, even when it is an object or
    ///   an array; string values are redacted as free text (a URL with a token inside a string is
    ///   caught too); the result is re-serialised with sorted keys. A body that says it is JSON
    ///   but does not parse falls back to the free-text rules.
    /// - Form-encoded (`application/x-www-form-urlencoded`): secret fields' values replaced, as in
    ///   a query.
    /// - Other UTF-8 text: the free-text rules of ``text(_:)``.
    /// - Binary (not UTF-8, containing NUL bytes, or a non-text content type such as `image/*`,
    ///   `audio/*`, `video/*`, `multipart/*` or `application/octet-stream`): a summary such as
    ///   `<binary body: 2048 bytes, image/png>`, never the bytes.
    ///
    /// Only the first `4 × limit` bytes (at most 4 MiB, or `limit` if larger) are scanned, cut at
    /// whitespace or a quote so that no run of text is cut in two and no fragment of a secret
    /// survives the cut (a run longer than that is left out whole). The result is then
    /// truncated to `limit` bytes, after redaction, on a character boundary, followed by a note
    /// `… (N more bytes)`.
    ///
    /// - Parameters:
    ///   - data: The body bytes.
    ///   - contentType: The `Content-Type` header's value, if any.
    ///   - limit: The most bytes of body text to show; negative counts as zero.
    /// - Returns: The loggable body, or `""` for an empty body.
    public func body(_ data: Data, contentType: String?, limit: Int) -> String {
        guard !data.isEmpty else { return "" }
        let limit = max(0, limit)
        let mediaType = Self.mediaType(contentType)
        if let mediaType, Self.isBinaryType(mediaType) {
            return Self.binarySummary(count: data.count, mediaType: mediaType)
        }
        let cap = Self.scanCap(limit: limit)
        let head = Array(data.prefix(cap + 1))
        let kept = SafeCut.scanPrefix(head[...], cap: cap)
        guard String(validating: kept, as: UTF8.self) != nil, !kept.contains(0) else {
            return Self.binarySummary(count: data.count, mediaType: mediaType)
        }
        let unscanned = data.count - kept.count
        if data.count <= cap, Self.isJSON(mediaType: mediaType, bytes: kept), let json = redactJSON(data) {
            return SafeCut.render(json, limit: limit, unscanned: 0)
        }
        if mediaType == "application/x-www-form-urlencoded" {
            var form: [UInt8] = []
            appendPairs(kept, field: .form, depth: 0, to: &form)
            // Whatever the header says, the body may not be a form: the text rules catch the rest.
            return SafeCut.render(redactText(form[...], depth: 0), limit: limit, unscanned: unscanned)
        }
        return SafeCut.render(redactText(kept, depth: 0), limit: limit, unscanned: unscanned)
    }

    /// The bytes scanned for a given output limit: four times the limit, at most
    /// ``bodyScanCeiling`` unless the limit is larger.
    static func scanCap(limit: Int) -> Int {
        let (quadruple, overflow) = limit.multipliedReportingOverflow(by: 4)
        return min(overflow ? Int.max - 1 : quadruple, max(limit, bodyScanCeiling))
    }

    /// The media type of a `Content-Type` value: before any parameters, trimmed, lowercased, and
    /// limited to the characters a media type may contain.
    static func mediaType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let essence = contentType.prefix { $0 != ";" }.lowercased()
        let allowed = essence.unicodeScalars.filter { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "!#$&^_.+-/".unicodeScalars.contains(scalar))
        }
        let cleaned = String(String.UnicodeScalarView(allowed.prefix(100)))
        return cleaned.isEmpty ? nil : cleaned
    }

    /// Whether a media type names content that is not text.
    static func isBinaryType(_ mediaType: String) -> Bool {
        let binaryFamilies = ["image/", "audio/", "video/", "font/", "model/", "multipart/", "application/grpc"]
        if binaryFamilies.contains(where: { mediaType.hasPrefix($0) }) { return true }
        let binaryTypes: Set<String> = [
            "application/octet-stream", "application/pdf", "application/zip", "application/gzip",
            "application/x-gzip", "application/x-tar", "application/x-7z-compressed", "application/x-bzip2",
            "application/x-xz", "application/zstd", "application/wasm", "application/x-protobuf",
            "application/protobuf", "application/vnd.google.protobuf", "application/msgpack",
            "application/x-msgpack", "application/cbor", "application/java-archive", "application/x-sqlite3",
        ]
        return binaryTypes.contains(mediaType)
    }

    /// `<binary body: 2048 bytes, image/png>`, or without the type when there is none.
    static func binarySummary(count: Int, mediaType: String?) -> String {
        guard let mediaType else { return "<binary body: \(count) bytes>" }
        return "<binary body: \(count) bytes, \(mediaType)>"
    }

    /// Whether a body is to be read as JSON: its type says so, or it has no type and looks like a
    /// JSON object or array.
    static func isJSON(mediaType: String?, bytes: ArraySlice<UInt8>) -> Bool {
        if let mediaType { return mediaType.hasSuffix("/json") || mediaType.hasSuffix("+json") }
        let first = bytes.first { !ASCII.isWhitespace($0) }
        return first == ASCII.leftBrace || first == ASCII.leftBracket
    }

    /// The deepest JSON nesting parsed; deeper documents go to the free-text rules, so neither
    /// the parser nor the redaction can run out of stack.
    static let jsonNestingLimit = 128

    /// Parses, redacts and re-serialises a JSON body.
    ///
    /// - Returns: The redacted JSON with sorted keys, or `nil` when the body does not parse (or
    ///   is nested too deeply).
    func redactJSON(_ data: Data) -> [UInt8]? {
        guard Self.nesting(of: data) <= Self.jsonNestingLimit,
            let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let redacted = try? JSONSerialization.data(
                withJSONObject: redactJSONValue(value, entropy: true),
                options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
            )
        else { return nil }
        return Array(redacted)
    }

    /// A JSON value with every secret field's value replaced by the mark.
    ///
    /// - Parameter entropy: Whether random-looking strings count as secrets: not under a key
    ///   that names an identifier.
    private func redactJSONValue(_ value: Any, entropy: Bool) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, inner) in object {
                let (name, settled) = RedactionNames.decodedName(Array(key.utf8)[...], plusIsSpace: false)
                let identifier = name.withUnsafeBufferPointer(RedactionLexicon.namesIdentifier)
                result[key] =
                    !settled || isSecretBodyField(name) ? Self.mark : redactJSONValue(inner, entropy: !identifier)
            }
            return result
        }
        if let array = value as? [Any] { return array.map { redactJSONValue($0, entropy: entropy) } }
        if let string = value as? String { return text(string, limit: .max, entropy: entropy) }
        return value
    }

    /// The deepest bracket nesting in a JSON text (brackets inside strings ignored).
    static func nesting(of data: Data) -> Int {
        var deepest = 0
        var depth = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == ASCII.backslash {
                    escaped = true
                } else if byte == ASCII.quote {
                    inString = false
                }
            } else if byte == ASCII.quote {
                inString = true
            } else if byte == ASCII.leftBrace || byte == ASCII.leftBracket {
                depth += 1
                deepest = max(deepest, depth)
            } else if byte == ASCII.rightBrace || byte == ASCII.rightBracket {
                depth -= 1
            }
        }
        return deepest
    }
}

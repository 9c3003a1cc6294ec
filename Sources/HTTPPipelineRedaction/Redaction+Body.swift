public import Foundation

extension Redaction {
    /// However large the limit, a body is never scanned past this many bytes (unless the limit
    /// itself is larger).
    package static let bodyScanCeiling = 4 << 20

    /// A body as it should appear in the log.
    ///
    /// - JSON (a JSON content type — `…/json`, `…+json`, JSON lines — or none and a body starting
    ///   with `{` or `[`): read in one streaming pass at any size, keys with their escapes decoded
    ///   (`"p\u0061ssword"`); the value of every secret key is replaced by `"<redacted>"` at any
    ///   depth, even when it is an object or an array; every other string is redacted as free text
    ///   (a URL with a token, a shaped credential); layout and key order are kept. Text that stops
    ///   being JSON falls to the free-text rules from there on.
    /// - XML (`…/xml`, `…+xml` such as SOAP's `application/soap+xml`, or none and a body starting
    ///   with `<?xml`): the content of every element and the value of every attribute whose local
    ///   name is secret (`<password>`, `<m:access_token>`, `apiKey="…"`) replaced by the mark, CDATA
    ///   and nested elements included; other text redacted as free text; markup kept.
    /// - Form-encoded (`application/x-www-form-urlencoded`): secret fields' values replaced, as in
    ///   a query, and values that hold a shaped credential too.
    /// - Multipart with a `boundary` (`multipart/form-data`, `multipart/mixed`): each part's
    ///   headers redacted as header values; a file or binary part summarised as
    ///   `<binary part: 2048 bytes, image/png>`; a secret field (`name="password"`) replaced by the
    ///   mark; any other part redacted as a body of its own type.
    /// - Other UTF-8 text: the free-text rules of ``text(_:)``.
    /// - Binary (not UTF-8, containing NUL bytes, or a non-text content type such as `image/*`,
    ///   `audio/*`, `video/*` or `application/octet-stream`, or multipart without a boundary): a
    ///   summary such as `<binary body: 2048 bytes, image/png>`, never the bytes.
    ///
    /// Only the first `4 × limit` bytes (at most 4 MiB, or `limit` if larger; multipart parts are
    /// found across the first 4 MiB) are scanned, cut at whitespace or a quote so that no run of
    /// text is cut in two and no fragment of a secret survives the cut (a run longer than that is
    /// left out whole). The result is then truncated to `limit` bytes, after redaction, on a
    /// character boundary, followed by a note `… (N more bytes; limit L)`.
    ///
    /// - Parameters:
    ///   - data: The body bytes.
    ///   - contentType: The `Content-Type` header's value, if any.
    ///   - limit: The most bytes of body text to show; negative counts as zero.
    /// - Returns: The loggable body, or `""` for an empty body.
    public func body(_ data: Data, contentType: String?, limit: Int) -> String {
        body(data, contentType: contentType, limit: limit, total: data.count)
    }

    /// ``body(_:contentType:limit:)`` for the first bytes of a longer body (a streamed one, of
    /// which only a prefix was kept): sizes and notes give `total`, the whole body's size.
    package func body(_ data: Data, contentType: String?, limit: Int, total: Int) -> String {
        guard !data.isEmpty else { return "" }
        let total = max(total, data.count)
        let limit = max(0, limit)
        let mediaType = Self.mediaType(contentType)
        if let mediaType, mediaType.hasPrefix("multipart/") {
            // Parts are found across the whole body (up to the ceiling), each part's text cut to
            // the limit; the cut falls where no run of text is split.
            let head = Array(data.prefix(Self.bodyScanCeiling + 1))
            let kept = SafeCut.scanPrefix(head[...], cap: Self.bodyScanCeiling)
            if let parts = redactMultipart(kept, contentType: contentType, limit: limit, depth: 0) {
                return SafeCut.render(parts, limit: limit, unscanned: total - kept.count)
            }
            return Self.binarySummary(count: total, mediaType: mediaType)
        }
        if let mediaType, Self.isBinaryType(mediaType) {
            return Self.binarySummary(count: total, mediaType: mediaType)
        }
        let cap = Self.scanCap(limit: limit)
        let head = Array(data.prefix(cap + 1))
        let kept = SafeCut.scanPrefix(head[...], cap: cap)
        guard String(validating: kept, as: UTF8.self) != nil, !kept.contains(0) else {
            return Self.binarySummary(count: total, mediaType: mediaType)
        }
        let unscanned = total - kept.count
        if Self.isJSON(mediaType: mediaType, bytes: kept) {
            return SafeCut.render(redactJSON(kept), limit: limit, unscanned: unscanned)
        }
        if Self.isXML(mediaType: mediaType, bytes: kept) {
            return SafeCut.render(redactXML(kept), limit: limit, unscanned: unscanned)
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
    package static func scanCap(limit: Int) -> Int {
        let (quadruple, overflow) = limit.multipliedReportingOverflow(by: 4)
        return min(overflow ? Int.max - 1 : quadruple, max(limit, bodyScanCeiling))
    }

    /// The media type of a `Content-Type` value: before any parameters, trimmed, lowercased, and
    /// limited to the characters a media type may contain.
    package static func mediaType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        // ASCII, as nearly every value is: byte by byte (Unicode properties cost ~50,000
        // instructions a call). Other text takes the general path: lowercasing may turn a
        // character that is not ASCII into one that is (the Kelvin sign into `k`).
        if contentType.utf8.allSatisfy({ $0 < 0x80 }) {
            var kept: [UInt8] = []
            for byte in contentType.utf8 {
                if byte == UInt8(ascii: ";") || kept.count == 100 { break }
                let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                switch lower {
                case 0x61...0x7A, 0x30...0x39: kept.append(lower)
                case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "^"),
                    UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"):
                    kept.append(lower)
                default: continue
                }
            }
            return kept.isEmpty ? nil : String(decoding: kept, as: UTF8.self)
        }
        return mediaTypeByScalars(contentType)
    }

    /// ``mediaType(_:)`` for any text, character by character.
    package static func mediaTypeByScalars(_ contentType: String) -> String? {
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
    package static func isBinaryType(_ mediaType: String) -> Bool {
        if binaryFamilies.contains(where: { mediaType.hasPrefix($0) }) { return true }
        return binaryTypes.contains(mediaType)
    }

    /// Type prefixes of content that is not text.
    private static let binaryFamilies = [
        "image/", "audio/", "video/", "font/", "model/", "multipart/", "application/grpc",
    ]

    /// Types of content that is not text.
    // Built once: as a literal inside `isBinaryType` the set was built, hashing every member, on
    // every call.
    private static let binaryTypes: Set<String> = [
        "application/octet-stream", "application/pdf", "application/zip", "application/gzip",
        "application/x-gzip", "application/x-tar", "application/x-7z-compressed", "application/x-bzip2",
        "application/x-xz", "application/zstd", "application/wasm", "application/x-protobuf",
        "application/protobuf", "application/vnd.google.protobuf", "application/msgpack",
        "application/x-msgpack", "application/cbor", "application/java-archive", "application/x-sqlite3",
    ]

    /// `<binary body: 2048 bytes, image/png>`, or without the type when there is none.
    static func binarySummary(count: Int, mediaType: String?) -> String {
        guard let mediaType else { return "<binary body: \(count) bytes>" }
        return "<binary body: \(count) bytes, \(mediaType)>"
    }

    /// Whether a body is to be read as JSON: its type says so, or it has no type and looks like a
    /// JSON object or array.
    static func isJSON(mediaType: String?, bytes: ArraySlice<UInt8>) -> Bool {
        if let mediaType {
            return mediaType.hasSuffix("/json") || mediaType.hasSuffix("+json") || mediaType.hasSuffix("ndjson")
                || mediaType.hasSuffix("/jsonl") || mediaType.hasSuffix("/json-seq")
        }
        let first = bytes.first { !ASCII.isWhitespace($0) }
        return first == ASCII.leftBrace || first == ASCII.leftBracket
    }
}

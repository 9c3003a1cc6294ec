import Foundation

extension Redaction {
    /// The deepest multipart nesting read (a `multipart/mixed` part inside a form); deeper parts
    /// are summarised.
    static let multipartNestingLimit = 2

    /// A multipart body (`multipart/form-data`, `multipart/mixed`, …) with each part shown as it
    /// should be logged, or `nil` when the body has no part delimited by its boundary.
    ///
    /// Part headers are redacted as header values. A part with a `filename`, or whose type or
    /// bytes are not text, is summarised (`<binary part: 2048 bytes, image/png>`); a form field
    /// whose name is secret (`name="password"`) shows the mark; any other part is redacted as a
    /// body of its own type (JSON, form, text), cut to `limit`.
    ///
    /// - Parameters:
    ///   - bytes: The body.
    ///   - contentType: The `Content-Type` value, for its `boundary` parameter.
    ///   - limit: The limit for each part's text.
    ///   - depth: How deeply this body is nested in another multipart body.
    /// - Returns: The redacted body, or `nil`.
    func redactMultipart(_ bytes: ArraySlice<UInt8>, contentType: String?, limit: Int, depth: Int) -> [UInt8]? {
        guard depth < Self.multipartNestingLimit, let contentType,
            let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty
        else { return nil }
        let delimiter = Array("--".utf8) + Array(boundary.utf8)
        guard var next = Self.delimiter(delimiter, in: bytes, from: bytes.startIndex) else { return nil }
        var output: [UInt8] = []
        // The preamble and the epilogue are bytes no client reads, and may hold what looks like
        // parts (a lying or hostile body): only their size is shown.
        output += Self.outsideParts(bytes[bytes.startIndex..<next], "before the first delimiter")
        while true {
            var index = next + delimiter.count
            output += delimiter
            if bytes[index...].starts(with: "--".utf8) {
                // The closing delimiter; whatever follows is an epilogue.
                output += Array("--".utf8)
                output += Self.outsideParts(bytes[(index + 2)...], "after the closing delimiter")
                return output
            }
            // The rest of the delimiter line.
            let lineEnd = bytes[index...].firstIndex(of: ASCII.lineFeed).map { $0 + 1 } ?? bytes.endIndex
            output += bytes[index..<lineEnd]
            index = lineEnd
            let following = Self.delimiter(delimiter, in: bytes, from: index)
            // A part ends at the line break before the next delimiter.
            var partEnd = following ?? bytes.endIndex
            if following != nil, partEnd > index, bytes[partEnd - 1] == ASCII.lineFeed {
                partEnd -= 1
                if partEnd > index, bytes[partEnd - 1] == ASCII.carriageReturn { partEnd -= 1 }
            }
            output += redactPart(bytes[index..<partEnd], limit: limit, depth: depth)
            guard let following else { return output }
            output += bytes[partEnd..<following]
            next = following
        }
    }

    /// Bytes around the parts: shown when they are only line breaks and spaces, else summarised
    /// by their size.
    private static func outsideParts(_ bytes: ArraySlice<UInt8>, _ place: String) -> [UInt8] {
        let blank: Set<UInt8> = [ASCII.carriageReturn, ASCII.lineFeed, UInt8(ascii: " "), UInt8(ascii: "\t")]
        guard !bytes.allSatisfy(blank.contains) else { return Array(bytes) }
        return Array("<\(bytes.count) bytes \(place)>".utf8)
    }

    /// One part: its headers redacted, its content shown as the part's kind allows.
    private func redactPart(_ part: ArraySlice<UInt8>, limit: Int, depth: Int) -> [UInt8] {
        let (headers, rest) = Self.splitHeaders(part)
        var output: [UInt8] = []
        var name: String?
        var hasFilename = false
        var contentType: String?
        for header in headers {
            let text = String(decoding: header.line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else {
                output += redactText(header.line, depth: 0)
                output += header.terminator
                continue
            }
            let field = String(text[..<colon])
            let value = text[text.index(after: colon)...].trimmingSpaces()
            switch field.trimmingSpaces().lowercased() {
            case "content-disposition":
                name = Self.parameter("name", in: value)
                hasFilename =
                    Self.parameter("filename", in: value) != nil || Self.parameter("filename*", in: value) != nil
            case "content-type":
                contentType = value
            default:
                break
            }
            output += Array("\(field): \(headerValue(name: field, value: value))".utf8)
            output += header.terminator
        }
        guard let rest else { return output }
        output += rest.separator
        let content = rest.content
        let mediaType = Self.mediaType(contentType)
        let isMultipart = mediaType?.hasPrefix("multipart/") == true
        let isBinaryType = !isMultipart && mediaType.map(Self.isBinaryType(_:)) == true
        if hasFilename || isBinaryType || content.contains(0) || String(validating: content, as: UTF8.self) == nil {
            output += Array("<binary part: \(content.count) bytes\(mediaType.map { ", \($0)" } ?? "")>".utf8)
        } else if let name, isSecretBodyField(Array(name.utf8)[...]) {
            output += Self.markBytes
        } else if isMultipart {
            output +=
                redactMultipart(content, contentType: contentType, limit: limit, depth: depth + 1)
                ?? Array(Self.binarySummary(count: content.count, mediaType: mediaType).utf8)
        } else {
            output += Array(body(Data(content), contentType: contentType ?? "text/plain", limit: limit).utf8)
        }
        return output
    }

    /// A header line of a part, without and with its line break.
    struct PartHeader {
        let line: ArraySlice<UInt8>
        let terminator: ArraySlice<UInt8>
    }

    /// The header lines of a part and, after the blank line, its content with the line break
    /// that separates them; `nil` content when there is no blank line.
    static func splitHeaders(_ part: ArraySlice<UInt8>) -> (
        [PartHeader], (separator: ArraySlice<UInt8>, content: ArraySlice<UInt8>)?
    ) {
        var headers: [PartHeader] = []
        var index = part.startIndex
        while index < part.endIndex {
            let lineFeed = part[index...].firstIndex(of: ASCII.lineFeed)
            let next = lineFeed.map { $0 + 1 } ?? part.endIndex
            var contentEnd = lineFeed ?? part.endIndex
            if contentEnd > index, part[contentEnd - 1] == ASCII.carriageReturn { contentEnd -= 1 }
            if contentEnd == index, lineFeed != nil {
                // The blank line: the content follows it.
                return (headers, (part[index..<next], part[next...]))
            }
            headers.append(PartHeader(line: part[index..<contentEnd], terminator: part[contentEnd..<next]))
            index = next
        }
        return (headers, nil)
    }

    /// Where the next delimiter line starts at or after `start`: `--boundary` at the start of the
    /// body or right after a line feed.
    static func delimiter(_ delimiter: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + delimiter.count <= bytes.endIndex {
            if bytes[index] == UInt8(ascii: "-"), index == bytes.startIndex || bytes[index - 1] == ASCII.lineFeed,
                bytes[index..<index + delimiter.count].elementsEqual(delimiter)
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The value of a `name=value` or `name="value"` parameter in a header value.
    static func parameter(_ name: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == name else { continue }
            var parameter = pair[1].trimmingSpaces()
            if parameter.count >= 2, parameter.hasPrefix("\""), parameter.hasSuffix("\"") {
                parameter = String(parameter.dropFirst().dropLast())
            }
            return parameter
        }
        return nil
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

package import Foundation
package import HTTPPipeline

/// How a whole response body is read back to the bytes that were meant: the codings its
/// `Content-Encoding` lists decoded last first, within a limit, or a body the transport decoded
/// (`decodedByTransport`) checked against the same limits and handed on with a head that says so. The gzip plugin reads every
/// buffered response this way, and the cassettes every body they record.
package struct ContentDecoding: Sendable, Equatable {
    /// The most bytes a decoded body may have.
    package var maximumDecodedSize: Int
    /// The most times a decoded body past ``ratioFloor`` may exceed the size received.
    package var maximumExpansionRatio: Int
    /// Whether a gzip file served as such (`application/gzip`, no `Content-Encoding`) is decoded.
    package var decodesGzipDownloads: Bool

    /// The decoded size below which ``maximumExpansionRatio`` is not checked: 1 MiB.
    package static let ratioFloor = 1 << 20

    /// The most codings one `Content-Encoding` may stack (e.g. `gzip, gzip`): 3.
    package static let maximumStackedCodings = 3

    /// Creates the rules.
    ///
    /// - Parameters:
    ///   - maximumDecodedSize: The most decoded bytes.
    ///   - maximumExpansionRatio: The most times a decoded body may exceed the size received.
    ///   - decodesGzipDownloads: Whether `application/gzip` bodies are decoded.
    package init(maximumDecodedSize: Int, maximumExpansionRatio: Int, decodesGzipDownloads: Bool) {
        self.maximumDecodedSize = maximumDecodedSize
        self.maximumExpansionRatio = maximumExpansionRatio
        self.decodesGzipDownloads = decodesGzipDownloads
    }

    /// The bound on the decoded size of a body received as `wireSize` bytes, and the limit to
    /// report when it is passed.
    package func outputLimit(forWireSize wireSize: Int) -> OutputLimit {
        let (product, overflow) = wireSize.multipliedReportingOverflow(by: maximumExpansionRatio)
        let byRatio = max(Self.ratioFloor, overflow ? Int.max : product)
        if byRatio < maximumDecodedSize {
            return OutputLimit(bytes: byRatio, error: .expansionRatio(maximumExpansionRatio))
        }
        return OutputLimit(bytes: maximumDecodedSize, error: .decodedSize(maximumDecodedSize))
    }

    /// The head of a decoded response: the same status and fields, less `Content-Encoding`,
    /// with `Content-Length` giving the decoded size (when known) and, for a decoded download,
    /// `Content-Type` replaced.
    package static func plainHead(_ head: HTTPResponseHead, size: Int?, contentType: String? = nil) -> HTTPResponseHead
    {
        var head = head
        head.decodedByTransport = false
        head.fields["Content-Encoding"] = nil
        head.fields["Content-Length"] = size.map(String.init)
        if let contentType { head.fields["Content-Type"] = contentType }
        return head
    }

    /// The codings `Content-Encoding` lists, in the order they were applied, or `nil` when it
    /// names one this middleware does not decode. `identity` and empty entries are skipped.
    package static func codings(in field: String) -> [GzipDecoder.Coding]? {
        switch field {
        case "gzip": return [.gzip]
        case "deflate": return [.deflate]
        default: break
        }
        var codings: [GzipDecoder.Coding] = []
        for token in field.split(separator: ",") {
            switch token.trimmingCharacters(in: .whitespaces).lowercased() {
            case "gzip", "x-gzip": codings.append(.gzip)
            case "deflate": codings.append(.deflate)
            case "identity", "": continue
            default: return nil
            }
        }
        return codings
    }

    /// Whether the response is a gzip file served as such (`application/gzip`).
    package static func isGzipDownload(_ response: HTTPResponseHead) -> Bool {
        // Most media types do not mention gzip at all: told by a scan of the bytes, before the
        // split, trim and lower-casing below (about 1,000 instructions a response).
        guard let field = response.fields["Content-Type"], mentionsGzip(field) else { return false }
        let media = field.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return media == "application/gzip" || media == "application/x-gzip"
    }

    /// Whether a response without a `Content-Encoding` is one this layer decodes anyway: a gzip
    /// file (`application/gzip`) when the options ask for that.
    package func mayDecodeAsDownload(_ response: HTTPResponseHead) -> Bool {
        decodesGzipDownloads && response.status != 206 && Self.isGzipDownload(response)
    }

    /// Whether `field` holds "gzip" in any case.
    private static func mentionsGzip(_ field: String) -> Bool {
        func letter(_ index: Int) -> UInt8 {
            switch index {
            case 0: UInt8(ascii: "g")
            case 1: UInt8(ascii: "z")
            case 2: UInt8(ascii: "i")
            default: UInt8(ascii: "p")
            }
        }
        var matched = 0
        for byte in field.utf8 {
            let lower = byte | 0x20  // ASCII letters to lower case; no other byte becomes one of these
            if lower == letter(matched) {
                matched += 1
                if matched == 4 { return true }
            } else {
                matched = lower == UInt8(ascii: "g") ? 1 : 0
            }
        }
        return false
    }

    /// The response as handed to the layer above: decoded, or, when the transport decoded it
    /// (``HTTPResponseHead/decodedByTransport``), checked against the limits and passed on, or
    /// untouched (a coding this layer does not know, a part of a representation). The verdict
    /// on a body depends on its bytes alone: a body that is not what its `Content-Encoding` says
    /// is a ``GzipError``, whatever its framing. (The cassettes record bodies as this reads them.)
    package func decode(_ data: Data, _ response: HTTPResponseHead) throws(GzipError) -> (Data, HTTPResponseHead) {
        if response.decodedByTransport {
            try checkDecodedBelow(count: data.count, response)
            return (data, Self.plainHead(response, size: data.count))
        }
        guard !data.isEmpty else { return (data, response) }
        guard let codings = Self.codings(in: response.fields["Content-Encoding"] ?? "") else {
            // A coding this layer does not decode (`br`, `zstd`) stays as it is, header and all.
            return (data, response)
        }
        if codings.isEmpty {
            guard mayDecodeAsDownload(response) else { return (data, response) }
            return try decodeDownload(data, response)
        }
        // A part of a compressed representation cannot be decoded on its own (RFC 9110 §14.4).
        if response.status == 206 { return (data, response) }
        guard codings.count <= Self.maximumStackedCodings else {
            throw .tooManyCodings(count: codings.count, maximum: Self.maximumStackedCodings)
        }
        let limit = outputLimit(forWireSize: data.count)
        var body = data
        for coding in codings.reversed() {
            body = try GzipDecoder.decode(body, as: coding, limit: limit)
        }
        return (body, Self.plainHead(response, size: body.count))
    }

    /// The limit for a body the transport decoded: against `Content-Length` (the encoded size,
    /// as the server sent it) when there is one, else the decoded size alone.
    package func limitForDecodedBelow(_ response: HTTPResponseHead) -> OutputLimit {
        guard let wire = Self.contentLength(response.fields["Content-Length"]) else {
            return OutputLimit(bytes: maximumDecodedSize, error: .decodedSize(maximumDecodedSize))
        }
        return outputLimit(forWireSize: wire)
    }

    /// Throws when a body the transport decoded, `count` bytes so far, passes the limit.
    package func checkDecodedBelow(count: Int, _ response: HTTPResponseHead) throws(GzipError) {
        let limit = limitForDecodedBelow(response)
        if count > limit.bytes { throw .limitExceeded(limit.error) }
    }

    /// `Content-Length` as a number: the common value ("491") parsed directly, then trimmed.
    package static func contentLength(_ field: String?) -> Int? {
        guard let field else { return nil }
        return Int(field) ?? Int(field.trimmingCharacters(in: .whitespaces))
    }

    /// A `.gz` download: decoded when it is gzip, untouched otherwise.
    private func decodeDownload(_ data: Data, _ response: HTTPResponseHead) throws(GzipError) -> (
        Data, HTTPResponseHead
    ) {
        var statistics = DecodeStatistics()
        let limit = outputLimit(forWireSize: data.count)
        switch try GzipDecoder.decode(
            data, as: .gzip, limit: limit, plainBody: .whenUnrecognised, statistics: &statistics)
        {
        case .plain:
            return (data, response)
        case .decoded(let decoded):
            let head = Self.plainHead(response, size: decoded.count, contentType: "application/octet-stream")
            return (decoded, head)
        }
    }
}

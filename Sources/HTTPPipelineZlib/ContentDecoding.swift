package import Foundation
package import HTTPPipeline

/// How a whole response body is read back to the bytes that were meant: the codings its
/// `Content-Encoding` lists decoded last first, within a limit, or the body found already decoded
/// by a transport below and handed on with a head that says so. The gzip plugin reads every
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
    ///
    /// A light head change: a few array writes, where rebuilding an `HTTPURLResponse` cost about
    /// 78,000 instructions on Linux (Documentation/CoreV2.md).
    package static func plainHead(_ head: HTTPResponseHead, size: Int?, contentType: String? = nil) -> HTTPResponseHead
    {
        var head = head
        head.fields["Content-Encoding"] = nil
        head.fields["Content-Length"] = size.map(String.init)
        if let contentType { head.fields["Content-Type"] = contentType }
        return head
    }

    /// What the response head says about whether its body is still the bytes that were sent.
    package enum WireEvidence {
        /// `Content-Length` equals the body's size: these are the wire bytes, unless a transport
        /// inflated them from exactly as many bytes (see ``ContentDecoding/mayBeInflated(_:)``).
        case intact
        /// `Content-Length` differs from the body's size: something below decoded it.
        case transformed
        /// No usable `Content-Length` (chunked, or a transport that does not set it).
        case unknown

        package init(contentLength field: String?, bodySize: Int) {
            // The common value ("491") parses directly; Foundation trims only what is left.
            guard let field, let length = Int(field) ?? Int(field.trimmingCharacters(in: .whitespaces)) else {
                self = .unknown
                return
            }
            self = length == bodySize ? .intact : .transformed
        }
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

    /// Whether `body` could be what a transport inflated from a stream exactly as long as it.
    ///
    /// URLSession keeps the wire's `Content-Length` on a body it inflated, and about 1 % of small
    /// JSON bodies gzip to exactly their own size (2 % with zlib; measured over 200,000 generated
    /// bodies under 300 bytes), so a matching length alone does not prove that nothing decoded a
    /// body. Such a body compressed, with its server's compressor, by at least the framing (18
    /// bytes for gzip, 6 for zlib, none for raw deflate), so it compresses with ours too.
    /// Compressed, encrypted or random bytes never do: deflate adds bytes to them. Judged on the
    /// first 64 KiB.
    package static func mayBeInflated(_ body: Data) -> Bool {
        let sample = body.prefix(64 << 10)
        guard let compressed = try? Deflater.compress(sample, format: .raw) else { return true }
        return compressed.count <= sample.count
    }

    /// The response as handed to the layer above: decoded, passed through as already decoded,
    /// or untouched. (The cassette records bodies as this reads them.)
    package func decode(_ data: Data, _ response: HTTPResponseHead) throws(GzipError) -> (Data, HTTPResponseHead) {
        guard !data.isEmpty else { return (data, response) }
        let codings = Self.codings(in: response.fields["Content-Encoding"] ?? "")
        if codings?.isEmpty == true {
            guard mayDecodeAsDownload(response) else {
                return (data, response)
            }
            return try decodeDownload(data, response)
        }
        let wire = WireEvidence(contentLength: response.fields["Content-Length"], bodySize: data.count)
        if wire == .transformed {
            // Decoded below (and a coding this layer does not decode, `br`, too: URLSession
            // inflates it): the body is plain, and a head that still named the coding would lie.
            return (data, Self.plainHead(response, size: data.count))
        }
        // A coding this layer does not decode (`br`, `zstd`) stays as it is, header and all.
        guard let codings else { return (data, response) }
        // A part of a compressed representation cannot be decoded on its own (RFC 9110 §14.4).
        if response.status == 206 { return (data, response) }
        guard codings.count <= Self.maximumStackedCodings else {
            throw .tooManyCodings(count: codings.count, maximum: Self.maximumStackedCodings)
        }
        let limit = outputLimit(forWireSize: data.count)
        var body = data
        for (layer, coding) in codings.reversed().enumerated() {
            // Only the outermost layer can have been decoded below; inner layers come from our
            // own decoding and must be what the header says.
            let plainBody: GzipDecoder.PlainBody =
                layer > 0 ? .never : coding == .gzip ? .whenUnrecognised : .whenUndecodable
            var statistics = DecodeStatistics()
            switch try GzipDecoder.decode(body, as: coding, limit: limit, plainBody: plainBody, statistics: &statistics)
            {
            case .decoded(let decoded): body = decoded
            case .plain:
                if wire == .intact, !Self.mayBeInflated(data) {
                    // The wire bytes are not what the label says: strict decoding says how.
                    _ = try GzipDecoder.decode(data, as: coding, limit: limit)
                }
                return (data, Self.plainHead(response, size: data.count))
            }
        }
        return (body, Self.plainHead(response, size: body.count))
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

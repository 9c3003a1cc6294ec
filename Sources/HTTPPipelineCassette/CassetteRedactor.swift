import Foundation
import HTTPPipeline
import HTTPPipelineRedaction

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The redaction engine of the logs, applied to what a cassette writes: header values, the URL
/// (user info and query) and text bodies, each secret replaced by its numbered placeholder.
struct CassetteRedactor: Sendable {
    let redaction: Redaction
    /// Media types (or prefixes, ending in `/`) whose unreadable bodies are kept as bytes.
    var keptBinaryTypes = Self.keptBinaryTypes

    /// A body as a cassette keeps it: redacted text, or base64 of bytes that are not text.
    enum Body: Equatable {
        case text(String)
        case binary(Data)
        /// The body is not recorded: what it was, in words.
        case summary(String)
    }

    /// The URL as written: secrets in user info and query replaced by placeholders.
    func url(_ url: URL, _ placeholders: inout Placeholders) -> String {
        placeholders.substitute(original: url.absoluteString, redacted: redaction.url(url), mark: Redaction.mark)
    }

    /// A header value as written.
    func headerValue(name: String, value: String, _ placeholders: inout Placeholders) -> String {
        placeholders.substitute(
            original: value,
            redacted: redaction.headerValue(name: name, value: value),
            mark: Redaction.mark
        )
    }

    /// Header fields as written, in order.
    func headers(_ fields: HTTPFields, _ placeholders: inout Placeholders) -> [HAR.NameValue] {
        fields.map {
            HAR.NameValue(
                name: $0.name.rawName, value: headerValue(name: $0.name.rawName, value: $0.value, &placeholders))
        }
    }

    /// Media types whose bytes a cassette keeps as they are (base64) although the engine cannot
    /// read them: pictures, sound, video and fonts, which carry no credentials in practice.
    static let keptBinaryTypes = ["image/", "audio/", "video/", "font/"]

    /// A body as written. Text (UTF-8 without NUL bytes, of a type that is not binary, with no
    /// `Content-Encoding`) goes through the engine's body rules (JSON, forms, multipart, free
    /// text) whole; multipart is always redacted as text, its binary parts summarised. Bytes the
    /// engine cannot read are kept only for the media types in `keptBinaryTypes` and without a
    /// content coding; any other (an octet stream, protobuf, a gzip-compressed form, JSON that is
    /// not UTF-8) is written as a summary of its size: it could hold a secret nobody can see.
    func body(
        _ data: Data, contentType: String?, contentEncoding: String? = nil, _ placeholders: inout Placeholders
    ) -> Body {
        let mediaType = Redaction.mediaType(contentType)
        let encoded = contentEncoding.map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        let multipart = (mediaType?.hasPrefix("multipart/") ?? false) && !encoded
        let text = String(validating: data, as: UTF8.self)
        let binaryType = mediaType.map(Redaction.isBinaryType) ?? false
        let hasNUL = data.withUnsafeBytes { $0.contains(0) }
        guard multipart || (text != nil && !hasNUL && !binaryType && !encoded) else {
            let kept =
                !encoded
                && keptBinaryTypes.contains { kept in
                    mediaType.map { $0 == kept || (kept.hasSuffix("/") && $0.hasPrefix(kept)) } ?? false
                }
            return kept ? .binary(data) : .summary(Self.unreadable(data.count))
        }
        let redacted = redaction.body(data, contentType: contentType, limit: .max)
        let original = text ?? String(decoding: data, as: UTF8.self)
        return .text(placeholders.substitute(original: original, redacted: redacted, mark: Redaction.mark))
    }

    /// What a cassette writes for a body it cannot read and does not keep.
    static func unreadable(_ count: Int) -> String {
        "<binary body: \(count) bytes, not recorded>"
    }

    static func pastLimit(_ count: Int, limit: Int) -> String {
        "<body: \(count) bytes, past the recording limit of \(limit), not recorded>"
    }

    /// A captured body as recorded: a summary when more bytes passed than were kept.
    func recorded(
        _ body: ExchangeRecording.Captured, contentType: String?, contentEncoding: String?, limit: Int,
        _ placeholders: inout Placeholders
    ) -> Body {
        guard body.bytes <= limit else { return .summary(Self.pastLimit(body.bytes, limit: limit)) }
        return self.body(body.kept, contentType: contentType, contentEncoding: contentEncoding, &placeholders)
    }

    /// Writes why an exchange failed into its response: the error's words, redacted, with its
    /// secrets numbered, and its kind, for a replay to rebuild.
    func failure(_ error: any Error, into response: inout HAR.Response, _ placeholders: inout Placeholders) {
        let words = redaction.describe(error, limit: 1_024)
        response.error = placeholders.substitute(
            original: String(describing: error), redacted: words, mark: Redaction.mark)
        if let urlError = error as? URLError {
            response.errorKind = "URLError"
            response.errorCode = urlError.errorCode
        } else {
            response.errorKind = Redaction.errorKind(of: error)
        }
    }

    /// A body redacted as by ``body(_:contentType:_:)`` with the plain mark: how a live
    /// request's body is compared with a recorded one.
    func liveBody(_ data: Data, contentType: String?, contentEncoding: String?) -> Data {
        var placeholders = Placeholders()
        switch body(data, contentType: contentType, contentEncoding: contentEncoding, &placeholders) {
        case .binary(let bytes): return bytes
        case .text(let text), .summary(let text): return Data(Placeholders.normalized(text, mark: Redaction.mark).utf8)
        }
    }
}

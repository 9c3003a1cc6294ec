import Foundation
import HTTPPipeline
import HTTPPipelineZlib

extension Cassette {
    /// A body as a cassette records it: decoded from gzip or deflate when its `Content-Encoding`
    /// says so, or taken as it is when the transport decoded it (`decodedByTransport`), with that
    /// field removed (and `Content-Length` set to the decoded size), so the redaction engine can
    /// read it and a replay serves it plain. A body that does not decode, or one in another
    /// coding, is left as it is (and then written only as a summary of its size).
    ///
    /// - Parameters:
    ///   - body: The bytes as they crossed the wire.
    ///   - fields: The head's fields.
    ///   - limit: The most decoded bytes.
    ///   - decodedByTransport: Whether the transport already decoded the body.
    /// - Returns: The body and fields to record.
    static func plain(
        _ body: Data, fields: HTTPFields, limit: Int, decodedByTransport: Bool = false
    ) -> (body: Data, fields: HTTPFields) {
        guard fields["Content-Encoding"] != nil, !body.isEmpty else { return (body, fields) }
        // Read as the gzip plugin reads a response: decoded, or taken as the transport decoded it
        // (URLSession inflates gzip, deflate and brotli and keeps the header), or left.
        let decoding = ContentDecoding(
            maximumDecodedSize: limit, maximumExpansionRatio: Int.max, decodesGzipDownloads: false)
        let head = HTTPResponseHead(status: 200, fields: fields, decodedByTransport: decodedByTransport)
        guard let (plain, head) = try? decoding.decode(body, head) else {
            return (body, fields)
        }
        return (plain, head.fields)
    }
}

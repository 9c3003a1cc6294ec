import Foundation
import HTTPPipeline
import HTTPPipelineGzip

extension Cassette {
    /// A body as a cassette records it: decoded from gzip or deflate when its `Content-Encoding`
    /// says so, with that field removed (and `Content-Length` set to the decoded size), so the
    /// redaction engine can read it and a replay serves it plain. A body that does not decode, or
    /// one in another coding, is left as it is (and then written only as a summary of its size).
    ///
    /// - Parameters:
    ///   - body: The bytes as they crossed the wire.
    ///   - fields: The head's fields.
    ///   - limit: The most decoded bytes.
    /// - Returns: The body and fields to record.
    static func plain(_ body: Data, fields: HTTPFields, limit: Int) -> (body: Data, fields: HTTPFields) {
        // The gzip plugin's reading of the field: a coding it does not decode leaves the body as it is.
        guard let coding = fields["Content-Encoding"], !body.isEmpty,
            let codings = GzipMiddleware.codings(in: coding)
        else { return (body, fields) }
        var decoded = body
        let outputLimit = OutputLimit(bytes: limit, error: .decodedSize(limit))
        for coding in codings.reversed() {
            guard let next = try? GzipDecoder.decode(decoded, as: coding, limit: outputLimit) else {
                return (body, fields)
            }
            decoded = next
        }
        var plainFields = fields
        plainFields["Content-Encoding"] = nil
        if plainFields["Content-Length"] != nil { plainFields["Content-Length"] = String(decoded.count) }
        return (decoded, plainFields)
    }
}

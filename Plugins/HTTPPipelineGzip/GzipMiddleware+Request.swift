import Foundation
import HTTPPipeline

extension GzipMiddleware {
    /// The `Accept-Encoding` value added to requests that have none.
    static let acceptEncoding = "gzip, deflate"

    /// The request as sent on: with `Accept-Encoding` when it had none, and with its body
    /// compressed when the options ask for it and it is large enough.
    func prepare(_ request: HTTPRequest) throws(GzipError) -> HTTPRequest {
        var request = request
        if request.fields["Accept-Encoding"] == nil {
            request.fields["Accept-Encoding"] = Self.acceptEncoding
        }
        guard
            let threshold = options.requestCompressionThreshold,
            let body = request.body?.bufferedData, body.count > threshold,
            request.fields["Content-Encoding"] == nil
        else {
            return request
        }
        let compressed = try Deflater.compress(body, format: .gzip)
        request.body = HTTPBody(compressed)
        request.fields["Content-Encoding"] = "gzip"
        if request.fields["Content-Length"] != nil {
            request.fields["Content-Length"] = String(compressed.count)
        }
        return request
    }
}

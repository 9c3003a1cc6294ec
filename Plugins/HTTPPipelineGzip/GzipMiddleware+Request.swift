import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension GzipMiddleware {
    /// The `Accept-Encoding` value added to requests that have none.
    static let acceptEncoding = "gzip, deflate"

    /// The request as sent on: with `Accept-Encoding` when it had none, and with its body
    /// compressed when the options ask for it and it is large enough.
    func prepare(_ request: URLRequest) throws(GzipError) -> URLRequest {
        var request = request
        if request.value(forHTTPHeaderField: "Accept-Encoding") == nil {
            request.setValue(Self.acceptEncoding, forHTTPHeaderField: "Accept-Encoding")
        }
        guard
            let threshold = options.requestCompressionThreshold,
            let body = request.httpBody, body.count > threshold,
            request.value(forHTTPHeaderField: "Content-Encoding") == nil
        else {
            return request
        }
        let compressed = try Deflater.compress(body, format: .gzip)
        request.httpBody = compressed
        request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        if request.value(forHTTPHeaderField: "Content-Length") != nil {
            request.setValue(String(compressed.count), forHTTPHeaderField: "Content-Length")
        }
        return request
    }
}

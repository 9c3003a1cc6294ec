import Foundation
import HTTPPipeline

extension GzipMiddleware {
    /// A streamed body whose length, or else its `Content-Length`, is at most this many bytes is
    /// read whole and decoded exactly as a buffered one: 256 KiB.
    static let wholeBodyLimit = 256 << 10

    /// The response to hand up for a streamed body: decoded as it is read, counted against the
    /// limits when the transport decoded it, passed on, or, when known to be small, read whole
    /// and decoded as a buffered body.
    ///
    /// What differs from the buffered path (``GzipMiddleware``):
    /// - The decoded head has no `Content-Length` (the size is not known before the end).
    /// - Limits are checked as the body grows: the expansion ratio against the bytes received so
    ///   far, so a body that expands far more at its start than over all can be refused where the
    ///   buffered path would take it.
    /// - deflate: zlib or raw, and whether it is deflate at all, is settled on the first 4 KiB;
    ///   a failure after that is an error (`StreamingInflater`).
    func decodeStreamed(_ response: HTTPResponse) async throws -> HTTPResponse {
        let head = response.head
        let body = response.body
        if head.decodedByTransport { return Self.checkedAsDecodedBelow(response, decoding: decoding) }
        // A coding this layer does not decode: as it came.
        guard let codings = ContentDecoding.codings(in: head.fields["Content-Encoding"] ?? "") else { return response }
        let download = codings.isEmpty
        if download {
            guard decoding.mayDecodeAsDownload(head) else { return response }
        }
        let announced = ContentDecoding.contentLength(head.fields["Content-Length"])
        var read = WireRead(body)
        if let known = body.length ?? announced, known <= Self.wholeBodyLimit {
            try await read.readAhead(Self.wholeBodyLimit + 1)
            if read.ended {
                let (decoded, decodedHead) = try decoding.decode(read.bytesAhead, head)
                return HTTPResponse(head: decodedHead, body: HTTPBody(decoded))
            }
        }
        if !download {
            // A part of a compressed representation cannot be decoded on its own.
            if head.status == 206 { return HTTPResponse(head: head, body: ResumedBody.body(body, after: read)) }
            guard codings.count <= ContentDecoding.maximumStackedCodings else {
                throw GzipError.tooManyCodings(count: codings.count, maximum: ContentDecoding.maximumStackedCodings)
            }
        }
        try await read.readAhead(2)
        if read.ended, read.count == 0 { return HTTPResponse(head: head, body: HTTPBody(Data())) }
        // A download (a representation, not a coding) that is not gzip is handed on as it is.
        if download, !read.startsWithGzipMagic {
            return HTTPResponse(head: head, body: ResumedBody.body(body, after: read))
        }
        let decodedHead =
            download
            ? ContentDecoding.plainHead(head, size: nil, contentType: "application/octet-stream")
            : ContentDecoding.plainHead(head, size: nil)
        let sequence = GzipDecodingSequence(
            body: body,
            begun: BegunRead(read),
            codings: download ? [.gzip] : codings,
            options: options
        )
        let decoded = HTTPBody(wrapping: body, length: nil) { sequence }
        return HTTPResponse(head: decodedHead, body: decoded)
    }
}

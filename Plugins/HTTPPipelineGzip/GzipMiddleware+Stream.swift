import Foundation
import HTTPPipeline

extension GzipMiddleware {
    /// A streamed body whose length, or else its `Content-Length`, is at most this many bytes is
    /// read whole and decoded exactly as a buffered one: 256 KiB, `URLSessionTransport`'s
    /// buffering limit.
    ///
    /// `URLSessionTransport` streams every body that has a `Content-Encoding` (the session inflated
    /// it, so its length is unknown), and for those, small API answers above all, the buffered
    /// rules need the whole body: whether `Content-Length` matches its size, and so whether it was
    /// inflated below.
    static let wholeBodyLimit = 256 << 10

    /// The response to hand up for a streamed body: decoded as it is read, passed on, or, when
    /// known to be small, read whole and decoded as a buffered body.
    ///
    /// What differs from the buffered path (``GzipMiddleware``), where the rules need a whole body
    /// that a stream does not have yet:
    /// - The decoded head has no `Content-Length` (the size is not known before the end).
    /// - Limits are checked as the body grows: the expansion ratio against the bytes received so
    ///   far, so a body that expands far more at its start than over all can be refused where the
    ///   buffered path would take it.
    /// - deflate: zlib or raw, and whether it is deflate at all, is settled on the first 4 KiB;
    ///   a failure after that is an error (``StreamingInflater``).
    /// - A body of unknown length under a `Content-Length` above ``wholeBodyLimit`` that starts
    ///   like its coding is decoded, though the end might show a size that differs from
    ///   `Content-Length` (a transport inflated it below and the inflated bytes are themselves
    ///   gzip): by then decoded bytes were handed up. One that does not start like its coding is
    ///   passed on, and if its first 64 KiB do not compress and its size turns out to be the
    ///   `Content-Length`, the read ends with the error strict decoding gives (rule 3).
    func decodeStreamed(_ response: HTTPResponse) async throws -> HTTPResponse {
        let head = response.head
        let body = response.body
        // A coding this layer does not decode: as it came.
        guard let codings = ContentDecoding.codings(in: head.fields["Content-Encoding"] ?? "") else { return response }
        let download = codings.isEmpty
        if download {
            guard decoding.mayDecodeAsDownload(head) else { return response }
        }
        let announced = Self.contentLength(head.fields["Content-Length"])
        var read = WireRead(body)
        if let known = body.length ?? announced, known <= Self.wholeBodyLimit {
            try await read.readAhead(Self.wholeBodyLimit + 1)
            if read.ended {
                let (decoded, decodedHead) = try decoding.decode(read.bytesAhead, head)
                return HTTPResponse(head: decodedHead, body: HTTPBody(decoded))
            }
        }
        var evidence = StreamEvidence.unknown
        if !download, let announced {
            if let length = body.length, read.count <= length {
                guard length == announced else {
                    // Rule 1: decoded below.
                    return HTTPResponse(
                        head: ContentDecoding.plainHead(head, size: length), body: ResumedBody.body(body, after: read))
                }
                evidence = .intact(length)
            } else if read.count > announced {
                // Rule 1: more bytes than the wire carried.
                return HTTPResponse(
                    head: ContentDecoding.plainHead(head, size: nil), body: ResumedBody.body(body, after: read))
            } else {
                evidence = .pending(announced)
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
        let magic = read.startsWithGzipMagic
        if download, !magic { return HTTPResponse(head: head, body: ResumedBody.body(body, after: read)) }
        let outermost = codings.last ?? .gzip
        // gzip without its magic bytes is passed on as it came, with its size when known.
        let plainSize = outermost == .gzip && !magic ? body.length : nil
        let decodedHead =
            download
            ? ContentDecoding.plainHead(head, size: nil, contentType: "application/octet-stream")
            : ContentDecoding.plainHead(head, size: plainSize)
        let sequence = GzipDecodingSequence(
            body: body,
            begun: BegunRead(read),
            codings: download ? [.gzip] : codings,
            outermost: outermost == .gzip ? .whenUnrecognised : .whenUndecodable,
            evidence: evidence,
            options: options
        )
        let decoded = HTTPBody(wrapping: body, length: plainSize) { sequence }
        return HTTPResponse(head: decodedHead, body: decoded)
    }

    /// `Content-Length` as a number, parsed as `ContentDecoding.WireEvidence` parses it.
    static func contentLength(_ field: String?) -> Int? {
        guard let field else { return nil }
        return Int(field) ?? Int(field.trimmingCharacters(in: .whitespaces))
    }
}

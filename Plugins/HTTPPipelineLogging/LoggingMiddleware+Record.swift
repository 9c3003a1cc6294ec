import HTTPPipeline
import HTTPPipelineRedaction

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

extension LoggingMiddleware {
    /// What a record says about one body: its size (`nil` while unknown) and its bytes as far as
    /// the record shows them.
    struct BodySeen: Sendable {
        var bytes: Int?
        var prefix: Data?
        var contentType: String?

        init(bytes: Int?, prefix: Data?, contentType: String?) {
            self.bytes = bytes
            self.prefix = prefix
            self.contentType = contentType
        }

        /// What a buffered body shows at once; a streamed one shows what a tee saw (`BodyTee`).
        init(_ body: HTTPBody?, contentType: String?) {
            self.init(
                bytes: body.map { $0.bufferedData?.count } ?? 0, prefix: body?.bufferedData, contentType: contentType)
        }
    }

    /// What the record says about the request body: known at once for a buffered body (or
    /// none), and for a streamed one what its tee saw by the time the record is written. Only
    /// a streamed body pays for a lock (most requests carry no body or a buffered one).
    struct SentBody: Sendable {
        private let fixed: BodySeen
        private let watched: Locked<BodySeen>?

        init(_ body: HTTPBody?, contentType: String?) {
            fixed = BodySeen(body, contentType: contentType)
            watched = body.map { $0.bufferedData == nil } == true ? Locked(fixed) : nil
        }

        var seen: BodySeen { watched?.withLock { $0 } ?? fixed }

        func update(_ seen: BodySeen) {
            watched?.withLock { $0 = seen }
        }
    }

    /// Builds the redacted record of one exchange, looking only at what `level` asks for.
    func record(
        _ request: HTTPRequestHead,
        streamedBody: Bool,
        attempt: Int?,
        elapsed: Duration,
        sent: BodySeen,
        response: (head: HTTPResponseHead, body: BodySeen)? = nil,
        error: (any Error)? = nil,
        metrics: HTTPTransferMetrics? = nil
    ) -> HTTPLogRecord {
        let showHeaders = level >= .headers
        let showBodies = level >= .body
        let outcome: HTTPLogRecord.Outcome =
            if let response, let error {
                .bodyFailed(status: response.head.status.code, kind: Redaction.errorKind(of: error))
            } else if let response {
                .response(status: response.head.status.code)
            } else {
                .failure(kind: error.map(Redaction.errorKind(of:)) ?? "unknown")
            }
        return HTTPLogRecord(
            level: level,
            method: request.method.rawValue,
            url: loggedURL(request.url),
            outcome: outcome,
            requestBytes: sent.bytes,
            responseBytes: response?.body.bytes,
            duration: elapsed,
            attempt: attempt,
            requestHeaders: showHeaders ? fields(request.fields) : [],
            responseHeaders: showHeaders ? fields(response?.head.fields ?? HTTPFields()) : [],
            errorDescription: showHeaders ? error.map(describe) : nil,
            requestBody: showBodies ? bodyText(sent, streamed: streamedBody) : nil,
            responseBody: showBodies ? response.map { bodyText($0.body, streamed: false) } : nil,
            limits: HTTPLogRecord.Limits(url: urlLimit, headerValue: headerValueLimit, body: bodyLimit),
            transferMetrics: metrics
        )
    }

    /// The URL as the record shows it: redacted and cut to the limit, or as it is when it was
    /// found clean before (``CleanURLMemo``).
    private func loggedURL(_ url: URL) -> String {
        let text = url.absoluteString
        if cleanURLs.contains(text) { return text }
        let logged = redaction.url(url, limit: urlLimit)
        if logged == text { cleanURLs.insert(text) }
        return logged
    }

    private func bodyText(_ body: BodySeen, streamed: Bool) -> String {
        guard let prefix = body.prefix else { return streamed && body.bytes == nil ? "<streamed body, not read>" : "" }
        return redaction.body(
            prefix, contentType: body.contentType, limit: bodyLimit, total: body.bytes ?? prefix.count)
    }

    /// Header fields sorted by name, values redacted where the name is secret, then cut to the
    /// limit.
    private func fields(_ fields: HTTPFields) -> [HTTPLogRecord.Field] {
        fields.map { field in
            HTTPLogRecord.Field(
                name: field.name.rawName,
                value: redaction.headerValue(name: field.name.rawName, value: field.value, limit: headerValueLimit))
        }
        .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// An error in words (the engine's `Redaction.describe(_:limit:)`), cut to the header value
    /// limit.
    func describe(_ error: any Error) -> String {
        redaction.describe(error, limit: headerValueLimit)
    }
}

import Foundation
import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension LoggingMiddleware {
    /// Builds the redacted record of one exchange, looking only at what `level` asks for.
    func record(
        _ request: URLRequest,
        attempt: Int?,
        elapsed: Duration,
        response: (data: Data, head: HTTPURLResponse)? = nil,
        error: (any Error)? = nil
    ) -> HTTPLogRecord {
        let showHeaders = level >= .headers
        let showBodies = level >= .body
        let outcome: HTTPLogRecord.Outcome =
            if let response {
                .response(status: response.head.statusCode)
            } else {
                .failure(kind: error.map(Self.kind(of:)) ?? "unknown")
            }
        return HTTPLogRecord(
            level: level,
            method: request.httpMethod ?? "GET",
            url: request.url.map { redaction.url($0, limit: urlLimit) } ?? "(no URL)",
            outcome: outcome,
            requestBytes: request.httpBodyStream == nil ? (request.httpBody?.count ?? 0) : nil,
            responseBytes: response?.data.count,
            duration: elapsed,
            attempt: attempt,
            requestHeaders: showHeaders ? fields(request.allHTTPHeaderFields ?? [:]) : [],
            responseHeaders: showHeaders ? fields(response?.head.allHeaderFields ?? [:]) : [],
            errorDescription: showHeaders ? error.map(describe) : nil,
            requestBody: showBodies ? requestBody(request) : nil,
            responseBody: showBodies
                ? response.map {
                    redaction.body(
                        $0.data, contentType: $0.head.value(forHTTPHeaderField: "Content-Type"), limit: bodyLimit)
                } : nil,
            limits: HTTPLogRecord.Limits(url: urlLimit, headerValue: headerValueLimit, body: bodyLimit)
        )
    }

    private func requestBody(_ request: URLRequest) -> String {
        if request.httpBodyStream != nil { return "<streamed body, not logged>" }
        guard let body = request.httpBody else { return "" }
        return redaction.body(body, contentType: request.value(forHTTPHeaderField: "Content-Type"), limit: bodyLimit)
    }

    /// Header fields sorted by name, values redacted where the name is secret, then cut to the
    /// limit.
    private func fields(_ headers: [AnyHashable: Any]) -> [HTTPLogRecord.Field] {
        headers.compactMap { key, value -> HTTPLogRecord.Field? in
            guard let name = key as? String else { return nil }
            let text = value as? String ?? String(describing: value)
            return HTTPLogRecord.Field(
                name: name, value: redaction.headerValue(name: name, value: text, limit: headerValueLimit))
        }
        .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// A short, secret-free name for an error: `cancelled`, `URLError.timedOut`, or its type.
    static func kind(of error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        if let urlError = error as? URLError { return "URLError." + ErrorWords.name(of: urlError.code) }
        return String(describing: type(of: error))
    }

    /// An error in words: a `URLError` by name, number and host (Foundation's own text is a
    /// number on Linux and the whole URL on Darwin); any other error by its description, redacted;
    /// either cut to the header value limit.
    func describe(_ error: any Error) -> String {
        guard error is URLError else { return redaction.text(String(describing: error), limit: headerValueLimit) }
        let words = ErrorWords.describe(error)
        guard words.utf8.count > headerValueLimit else { return words }
        return SafeCut.render(Array(words.utf8), limit: headerValueLimit, unscanned: 0)
    }
}

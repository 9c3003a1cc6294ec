import Foundation
import HTTPPipeline
import HTTPPipelineRedaction

extension Cassette {
    /// Sends a request through `base` and records the exchange once it is whole (see
    /// ``ExchangeRecording``). Bodies pass through unchanged, a stream as a stream; the entry
    /// keeps the first `bodyLimit` bytes of each, and a body past that as a summary of its size.
    ///
    /// - Parameter recorded: Called with the entry and its index in the cassette, once recorded.
    /// - Throws: What `base` threw (recorded as a failed entry).
    func exchangeRecording(
        _ request: HTTPRequest,
        over base: some HTTPTransport,
        bodyLimit: Int,
        recorded: (@Sendable (HAR.Entry, Int) -> Void)? = nil
    ) async throws -> HTTPResponse {
        let exchange = ExchangeRecording(cassette: self, request: request.head, limit: bodyLimit, recorded: recorded)
        var request = request
        if let body = request.body { request.body = exchange.watchRequestBody(body) }
        let response: HTTPResponse
        do {
            response = try await base.send(request)
        } catch {
            exchange.failed(error)
            throw error
        }
        return exchange.responded(response)
    }

    /// Collects a body, mapping its size error to the cassette's.
    static func collect(_ body: HTTPBody?, limit: Int) async throws -> Data? {
        guard let body else { return nil }
        do {
            return try await body.collect(upTo: limit)
        } catch let error as HTTPBodyError where error.isTooLarge {
            throw CassetteError.bodyTooLarge(limit: limit)
        }
    }

    /// Adds the entry of one exchange, redacted, numbering its secrets under the lock, in its
    /// place by `sequence` (when its request was sent); returns it and its index at that moment.
    /// Bodies are recorded decoded (the engine reads the text, and a replay serves it plain); a
    /// body past `limit` as a summary of its size.
    func record(
        _ request: HTTPRequestHead,
        body requestBody: ExchangeRecording.Captured?,
        response: HTTPResponseHead,
        body responseBody: ExchangeRecording.Captured?,
        error: (any Error)?,
        limit: Int,
        sequence: Int,
        started: Date,
        timings: HAR.Timings
    ) -> (HAR.Entry, Int) {
        let redactor = self.redactor
        let plainRequest = requestBody.map { Self.plain($0, fields: request.fields, limit: limit) }
        let plainResponse = responseBody.map {
            Self.plain($0, fields: response.fields, limit: limit, decodedByTransport: response.decodedByTransport)
        }
        let requestFields = plainRequest?.fields ?? request.fields
        let responseFields = plainResponse?.fields ?? response.fields
        return state.withLock { state in
            let url = redactor.url(request.url, &state.placeholders)
            let requestContentType = requestFields["Content-Type"]
            let postData = plainRequest.map { plain in
                Self.postData(
                    redactor.recorded(
                        plain.body, contentType: requestContentType,
                        contentEncoding: requestFields["Content-Encoding"], limit: limit, &state.placeholders),
                    mimeType: requestContentType ?? ""
                )
            }
            var harRequest = HAR.Request(
                method: request.method.rawValue,
                url: url,
                headers: redactor.headers(requestFields, &state.placeholders),
                queryString: URLParts(url).queryItems.map { HAR.NameValue(name: $0.name, value: $0.value) },
                postData: postData,
                bodySize: requestBody?.bytes ?? 0
            )
            harRequest.cookies = redactor.requestCookies(requestFields, &state.placeholders)
            let responseContentType = responseFields["Content-Type"]
            var content = HAR.Content(size: 0, mimeType: responseContentType ?? "", text: nil)
            if let plainResponse {
                let body = redactor.recorded(
                    plainResponse.body, contentType: responseContentType,
                    contentEncoding: responseFields["Content-Encoding"], limit: limit, &state.placeholders)
                content = Self.content(body, size: plainResponse.body.bytes, mimeType: responseContentType ?? "")
                // A replay streams the recorded bytes as they came; a summary is no bytes to stream.
                if case .summary = body {
                    content.notRecorded = true
                } else {
                    content.chunks = plainResponse.body.chunks
                }
            }
            let headers = redactor.headers(responseFields, &state.placeholders)
            let location = headers.first { $0.name.lowercased() == "location" }?.value ?? ""
            var harResponse = HAR.Response(
                status: response.status.code, headers: headers, content: content, redirectURL: location)
            harResponse.cookies = redactor.responseCookies(responseFields, &state.placeholders)
            if let error { redactor.failure(error, into: &harResponse, &state.placeholders) }
            let entry = HAR.Entry(
                startedDateTime: started.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
                time: timings.send + timings.wait + timings.receive,
                request: harRequest,
                response: harResponse,
                timings: timings
            )
            return (entry, state.insert(entry, sequence: sequence))
        }
    }

    /// A captured body decoded as ``plain(_:fields:limit:decodedByTransport:)`` decodes a whole one; one cut at the
    /// limit is left as it is (it is recorded as a summary).
    static func plain(
        _ body: ExchangeRecording.Captured, fields: HTTPFields, limit: Int, decodedByTransport: Bool = false
    ) -> (body: ExchangeRecording.Captured, fields: HTTPFields) {
        guard body.bytes <= limit else { return (body, fields) }
        let plain = plain(body.kept, fields: fields, limit: limit, decodedByTransport: decodedByTransport)
        // Found plain already: the same bytes, in the same chunks, under the corrected head.
        guard plain.body != body.kept else { return (body, plain.fields) }
        var decoded = ExchangeRecording.Captured(plain.body)
        // The chunks were of the coded bytes: a replay of the plain body streams it in one.
        decoded.chunks = body.chunks.map { _ in [plain.body.count] }
        return (decoded, plain.fields)
    }

    static func postData(_ body: CassetteRedactor.Body, mimeType: String) -> HAR.PostData {
        switch body {
        case .text(let text), .summary(let text): HAR.PostData(mimeType: mimeType, text: text)
        case .binary(let data): HAR.PostData(mimeType: mimeType, text: data.base64EncodedString(), encoding: "base64")
        }
    }

    static func content(_ body: CassetteRedactor.Body, size: Int, mimeType: String) -> HAR.Content {
        switch body {
        case .text(let text), .summary(let text): HAR.Content(size: size, mimeType: mimeType, text: text)
        case .binary(let data):
            HAR.Content(size: size, mimeType: mimeType, text: data.base64EncodedString(), encoding: "base64")
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}

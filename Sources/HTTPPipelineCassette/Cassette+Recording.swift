import Foundation
import HTTPPipeline
import HTTPPipelineLogging

extension Cassette {
    /// Sends a request through `base` and records the exchange: the request body and a streamed
    /// response body are collected up to `bodyLimit` and handed on buffered.
    ///
    /// - Throws: ``CassetteError/bodyTooLarge(limit:)`` past the limit, or what `base` threw
    ///   (nothing is recorded then).
    func exchangeRecording(
        _ request: HTTPRequest,
        over base: some HTTPTransport,
        bodyLimit: Int
    ) async throws -> (HTTPResponse, HAR.Entry) {
        var request = request
        let requestBody = try await Self.collect(request.body, limit: bodyLimit)
        if let requestBody, request.body?.bufferedData == nil { request.body = HTTPBody(requestBody) }
        let started = Date()
        let clock = ContinuousClock()
        let start = clock.now
        var response = try await base.send(request)
        let waited = clock.now - start
        let responseBody = try await Self.collect(response.body, limit: bodyLimit) ?? Data()
        if response.body.bufferedData == nil { response.body = HTTPBody(responseBody) }
        let received = clock.now - start - waited
        // Recorded decoded: the engine reads the text, and a replay serves it plain.
        var recordedRequest = request
        let plainRequest = requestBody.map { Self.plain($0, fields: request.fields, limit: bodyLimit) }
        if let plainRequest { recordedRequest.fields = plainRequest.fields }
        var recordedHead = response.head
        let plainResponse = Self.plain(responseBody, fields: response.head.fields, limit: bodyLimit)
        recordedHead.fields = plainResponse.fields
        let entry = record(
            recordedRequest,
            body: plainRequest?.body,
            response: recordedHead,
            body: plainResponse.body,
            started: started,
            timings: HAR.Timings(send: 0, wait: Self.milliseconds(waited), receive: Self.milliseconds(received))
        )
        return (response, entry)
    }

    /// Collects a body, mapping its size error to the cassette's.
    static func collect(_ body: HTTPBody?, limit: Int) async throws -> Data? {
        guard let body else { return nil }
        do {
            return try await body.collect(upTo: limit)
        } catch HTTPBodyError.tooLarge {
            throw CassetteError.bodyTooLarge(limit: limit)
        }
    }

    /// Appends the entry of one exchange, redacted, numbering its secrets under the lock.
    func record(
        _ request: HTTPRequest,
        body requestBody: Data?,
        response: HTTPResponseHead,
        body responseBody: Data,
        started: Date,
        timings: HAR.Timings
    ) -> HAR.Entry {
        let redactor = self.redactor
        return state.withLock { state in
            let url = redactor.url(request.url, &state.placeholders)
            let requestContentType = request.fields["Content-Type"]
            let postData = requestBody.map { data in
                Self.postData(
                    redactor.body(
                        data, contentType: requestContentType,
                        contentEncoding: request.fields["Content-Encoding"], &state.placeholders),
                    mimeType: requestContentType ?? ""
                )
            }
            var harRequest = HAR.Request(
                method: request.method.rawValue,
                url: url,
                headers: redactor.headers(request.fields, &state.placeholders),
                queryString: URLParts(url).queryItems.map { HAR.NameValue(name: $0.name, value: $0.value) },
                postData: postData,
                bodySize: requestBody?.count ?? 0
            )
            harRequest.cookies = redactor.requestCookies(request.fields, &state.placeholders)
            let responseContentType = response.fields["Content-Type"]
            let content = Self.content(
                redactor.body(
                    responseBody, contentType: responseContentType,
                    contentEncoding: response.fields["Content-Encoding"], &state.placeholders),
                size: responseBody.count,
                mimeType: responseContentType ?? ""
            )
            let headers = redactor.headers(response.fields, &state.placeholders)
            let location = headers.first { $0.name.lowercased() == "location" }?.value ?? ""
            var harResponse = HAR.Response(
                status: response.status, headers: headers, content: content, redirectURL: location)
            harResponse.cookies = redactor.responseCookies(response.fields, &state.placeholders)
            let entry = HAR.Entry(
                startedDateTime: started.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
                time: timings.send + timings.wait + timings.receive,
                request: harRequest,
                response: harResponse,
                timings: timings
            )
            state.entries.append(entry)
            return entry
        }
    }

    static func postData(_ body: CassetteRedactor.Body, mimeType: String) -> HAR.PostData {
        switch body {
        case .text(let text): HAR.PostData(mimeType: mimeType, text: text)
        case .binary(let data): HAR.PostData(mimeType: mimeType, text: data.base64EncodedString(), encoding: "base64")
        }
    }

    static func content(_ body: CassetteRedactor.Body, size: Int, mimeType: String) -> HAR.Content {
        switch body {
        case .text(let text): HAR.Content(size: size, mimeType: mimeType, text: text)
        case .binary(let data):
            HAR.Content(size: size, mimeType: mimeType, text: data.base64EncodedString(), encoding: "base64")
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}

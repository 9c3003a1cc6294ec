import Foundation
import HTTPPipeline
import HTTPPipelineLogging
import HTTPPipelineRedaction
import HTTPPipelineTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct LoggingMiddlewareTests {
    let url =
        URL(string: "https://user:hunter2@api.example.invalid/books/1?access_token=tok-SECRET-1&page=2")
        ?? URL(fileURLWithPath: "/")

    func request(method: HTTPMethod = .get, body: Data? = nil, headers: [String: String] = [:]) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: url, body: body.map { HTTPBody($0) })
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.fields[name] = value }
        return request
    }

    func log(
        _ level: LogLevel,
        _ request: HTTPRequest,
        reply: ScriptedTransport.Reply = .status(
            200, headers: ["Content-Type": "application/json"], body: Data(#"{"ok":true}"#.utf8))
    ) async -> InMemoryLogSink {
        let sink = InMemoryLogSink()
        let pipeline = Pipeline(transport: ScriptedTransport([reply])) { LoggingMiddleware(level: level, sink: sink) }
        _ = try? await pipeline.send(request)
        return sink
    }

    @Test func basicLevelWritesOneRecordWithTheFactsOfTheExchange() async throws {
        let sink = await log(.basic, request(method: .post, body: Data("12345".utf8)))
        let record = try #require(sink.records.first)
        #expect(sink.records.count == 1)
        #expect(record.method == "POST")
        #expect(record.outcome == .response(status: 200))
        #expect(record.requestBytes == 5)
        #expect(record.responseBytes == 11)
        #expect(record.attempt == nil)
        #expect(record.url.hasPrefix("https://"))
        #expect(record.url.contains("page=2"))
        #expect(!record.url.contains("tok-SECRET-1"))
        #expect(!record.url.contains("hunter2"))
        #expect(record.requestHeaders.isEmpty && record.responseHeaders.isEmpty)
        #expect(record.requestBody == nil && record.responseBody == nil)
        #expect(!record.formatted.contains("\n"), "basic is one line")
    }

    @Test func noneLevelMakesNoRecordAndNeverCallsTheSink() async {
        let calls = Locked(0)
        let pipeline = Pipeline(transport: ScriptedTransport([.ok()])) {
            LoggingMiddleware(level: .none) { _ in calls.withLock { $0 += 1 } }
        }
        _ = try? await pipeline.send(request())
        #expect(calls.value == 0)
    }

    @Test func headersLevelShowsHeadersWithSecretsRedacted() async throws {
        let sink = await log(
            .headers, request(headers: ["Authorization": "Bearer tok-SECRET-2", "Accept": "application/json"]))
        let record = try #require(sink.records.first)
        #expect(record.requestHeaders.contains(.init(name: "Authorization", value: Redaction.mark)))
        #expect(record.requestHeaders.contains(.init(name: "Accept", value: "application/json")))
        #expect(record.responseHeaders.contains(.init(name: "Content-Type", value: "application/json")))
        #expect(!sink.text.contains("tok-SECRET-2"))
        #expect(record.requestBody == nil)
    }

    @Test func bodyLevelShowsBodiesWithSecretFieldsRedacted() async throws {
        let body = Data(#"{"user":"ada","password":"pw-SECRET-3","profile":{"api_key":"key-SECRET-4"}}"#.utf8)
        let reply = ScriptedTransport.Reply.status(
            200, headers: ["Content-Type": "application/json"],
            body: Data(#"{"refresh_token":"tok-SECRET-5","name":"shelf"}"#.utf8))
        let sink = await log(
            .body, request(method: .post, body: body, headers: ["Content-Type": "application/json"]), reply: reply)
        let record = try #require(sink.records.first)
        #expect(record.requestBody?.contains("ada") == true)
        #expect(record.responseBody?.contains("shelf") == true)
        for secret in ["pw-SECRET-3", "key-SECRET-4", "tok-SECRET-5"] {
            #expect(!sink.text.contains(secret))
        }
    }

    @Test func thrownErrorIsLoggedByKindAndItsDescriptionIsRedacted() async throws {
        let failing = URLError(
            .timedOut,
            userInfo: [
                NSURLErrorFailingURLErrorKey: URL(string: "https://api.example.invalid/x?access_token=tok-SECRET-6")
                    as Any
            ])
        let sink = await log(.headers, request(), reply: .failure(failing))
        let record = try #require(sink.records.first)
        #expect(record.outcome == .failure(kind: "URLError.timedOut"))
        #expect(record.responseBytes == nil)
        #expect(record.errorDescription == "timedOut (URLError -1001) to api.example.invalid")
        #expect(!sink.text.contains("tok-SECRET-6"))
    }

    @Test func cancellationIsLoggedAsCancelled() async throws {
        let sink = await log(.basic, request(), reply: .failure(CancellationError()))
        #expect(sink.records.first?.outcome == .failure(kind: "cancelled"))
    }

    @Test func attemptNumberSetByARetryingLayerOutsideIsRecorded() async throws {
        let sink = InMemoryLogSink()
        let pipeline = Pipeline(transport: ScriptedTransport([.status(503), .ok()])) {
            LoggingMiddleware(level: .basic, sink: sink)
        }
        for number in [1, 2] {
            var attempt = request()
            attempt.context.attempt = number
            _ = try await pipeline.send(attempt)
        }
        #expect(sink.records.map(\.attempt) == [1, 2])
        #expect(sink.records.last?.summary.hasSuffix("attempt 2") == true)
    }

    @Test func durationCoversTheRestOfThePipeline() async throws {
        let sink = await log(.basic, request(), reply: .ok().delayed(by: .milliseconds(30)))
        let record = try #require(sink.records.first)
        #expect(record.duration >= .milliseconds(30))
    }

    @Test func failingSinkNeverFailsTheRequest() async throws {
        struct SinkBroke: Error {}
        let pipeline = Pipeline(transport: ScriptedTransport([.ok("fine")])) {
            LoggingMiddleware(level: .body) { _ in throw SinkBroke() }
        }
        let response = try await pipeline.send(request())
        #expect(response.status == 200)
        #expect(String(decoding: try await response.bytes(), as: UTF8.self) == "fine")
    }

    @Test(arguments: LogLevel.allCases)
    func loggingKeepsTheMiddlewareContractAtEveryLevel(level: LogLevel) async {
        let report = await MiddlewareContract().check(LoggingMiddleware(level: level, sink: InMemoryLogSink()))
        #expect(report.violations.isEmpty, "\(level): \(report)")
    }

    @Test func requestResponseAndErrorReachTheirDestinationUnchanged() async throws {
        let original = request(method: .put, body: Data("body".utf8), headers: ["Authorization": "Bearer x"])
        let transport = ScriptedTransport([.status(201, headers: ["Set-Cookie": "s=1"], body: Data("reply".utf8))])
        let pipeline = Pipeline(transport: transport) { LoggingMiddleware(level: .body, sink: InMemoryLogSink()) }
        let response = try await pipeline.send(original)
        let sent = try #require(transport.requests.first)
        #expect(sent.method == original.method)
        #expect(sent.url == original.url)
        #expect(sent.fields == original.fields)
        #expect(sent.body?.bufferedData == original.body?.bufferedData)
        #expect(try await response.bytes() == Data("reply".utf8))
        #expect(response.status == 201)
        #expect(response.fields["Set-Cookie"] == "s=1")
    }

    @Test func streamedRequestBodyIsNotRead() async throws {
        // Logging never reads a streamed request body itself: one the transport does not read
        // stays unread, unsized and unshown.
        let reads = Locked(0)
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data("secret stream".utf8))
            continuation.finish()
        }
        let streamed = request(method: .post, headers: ["Content-Type": "text/plain"])
        var sending = streamed
        sending.body = HTTPBody(stream: CountingChunks(base: chunks, reads: reads))
        let sink = InMemoryLogSink()
        let pipeline = Pipeline(transport: BodyIgnoringTransport()) { LoggingMiddleware(level: .body, sink: sink) }
        _ = try await pipeline.send(sending)
        let record = try #require(sink.records.first)
        #expect(sink.records.count == 1)
        #expect(reads.value == 0)
        #expect(record.requestBytes == nil)
        #expect(record.requestBody == "<streamed body, not read>")
        #expect(!sink.text.contains("secret stream"))
    }
}

@Suite struct LoggingHostileInputTests {
    @Test func enormousHeadersAndNonUTF8BodiesAreLoggedSafely() async throws {
        let huge = String(repeating: "a", count: 2_000_000)
        var request = HTTPRequest(
            method: .post,
            url: URL(string: "https://api.example.invalid/x?token=tok-SECRET-9") ?? URL(fileURLWithPath: "/"))
        request.fields["X-Huge"] = huge
        request.fields["Authorization"] = "Bearer tok-SECRET-10 " + huge
        request.fields["Content-Type"] = "application/json"
        request.body = HTTPBody(Data([0xFF, 0xFE, 0x00, 0x7B, 0x22]))  // not UTF-8, not JSON
        let sink = InMemoryLogSink()
        let reply = ScriptedTransport.Reply.status(
            200, headers: ["Content-Type": "text/plain"], body: Data([0xC3, 0x28, 0xA0, 0xA1]))
        let pipeline = Pipeline(transport: ScriptedTransport([reply])) { LoggingMiddleware(level: .body, sink: sink) }
        let response = try await pipeline.send(request)
        #expect(try await response.bytes() == Data([0xC3, 0x28, 0xA0, 0xA1]), "the caller still gets the exact bytes")
        let text = sink.text
        #expect(!text.contains("tok-SECRET-9"))
        #expect(!text.contains("tok-SECRET-10"))
        #expect(text.utf8.count < 3_000_000, "an enormous header is cut, not copied whole twice")
        #expect(sink.records.first?.requestBody?.contains("binary") == true)
    }
}

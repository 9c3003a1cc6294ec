import Foundation
import HTTPPipeline
import HTTPPipelineAuth
import HTTPPipelineCookies
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineRedaction
import HTTPPipelineRedirect
import HTTPPipelineRetry
import HTTPPipelineStandard
import HTTPPipelineTesting
import Testing

/// One scenario against httpbin through the standard pipeline over a transport of a given kind, its
/// records written to the given sink. Each is a test of its own, and the whole-run test runs them
/// all into one sink to check that none of the secrets reached it.
enum Scenario: String, CaseIterable, Sendable {
    case defaultHeaders, bearerRefresh, retry503, retry429, gzipDeflate, brotli, passwordBody
    case setCookie, redirectChain, binaryBody, cancellation
    case redirectToAnotherOrigin, redirectHops, absoluteRedirectHops, relativeRedirectHops
    case deadlineOnASilentServer, deadlineOnDelay

    /// Runs the scenario over a transport of `kind` (every transport it makes is of that kind).
    func run(on server: HTTPBin, into sink: InMemoryLogSink, over kind: TransportKind) async throws {
        try await TransportKind.$current.withValue(kind) { try await run(on: server, into: sink) }
    }

    private func run(on server: HTTPBin, into sink: InMemoryLogSink) async throws {
        switch self {
        case .defaultHeaders: try await Self.defaultHeaders(server, sink)
        case .bearerRefresh: try await Self.bearerRefresh(server, sink)
        case .retry503: try await Self.retried(status: 503, server, sink)
        case .retry429: try await Self.retried(status: 429, server, sink)
        case .gzipDeflate: try await Self.gzipDeflate(server, sink)
        case .brotli: try await Self.brotli(server, sink)
        case .passwordBody: try await Self.passwordBody(server, sink)
        case .setCookie: try await Self.setCookie(server, sink)
        case .redirectChain: try await Self.redirectChain(server, sink)
        case .binaryBody: try await Self.binaryBody(server, sink)
        case .cancellation: try await Self.cancellation(server, sink)
        case .redirectToAnotherOrigin: try await Self.redirectToAnotherOrigin(server, sink)
        case .redirectHops: try await Self.followedChain("/redirect/3", server, sink)
        case .absoluteRedirectHops: try await Self.followedChain("/absolute-redirect/3", server, sink)
        case .relativeRedirectHops: try await Self.followedChain("/relative-redirect/3", server, sink)
        case .deadlineOnASilentServer: try await Self.deadlineOnASilentServer(sink)
        case .deadlineOnDelay: try await Self.deadlineOnDelay(server, sink)
        }
    }

    /// The standard pipeline over `transport`, with quick retries, logging at body level to `sink`.
    static func pipeline<Transport: HTTPTransport>(
        over transport: Transport,
        sink: InMemoryLogSink,
        headers: [DefaultHeaders.Header] = [],
        redirects: RedirectPolicy? = .default,
        credentials: (any CredentialSource)? = nil,
        cookies: CookieMiddleware? = nil
    ) throws -> Pipeline<some HTTPMiddleware, Transport> {
        try StandardPipeline.build(
            over: transport,
            options: StandardOptions(
                headers: headers,
                redirects: redirects,
                retry: .interop(),
                credentials: credentials,
                cookies: cookies,
                logging: .init(level: .body, sink: sink)
            ))
    }

    static func defaultHeaders(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        let pipeline = try pipeline(
            over: InteropTransport.make(),
            sink: sink,
            headers: [
                .fixed("User-Agent", "swift-http-pipeline-interop/1.0"),
                .fixed("X-Interop-Suite", "httpbin"),
                // (httpbin hides X-Request-ID from its echo, as a proxy's header.)
                .computed("X-Correlation-ID") { _ in "corr-42" },
            ])
        let response = try await pipeline.send(try server.request("/headers"))
        let data = try await response.bytes()
        #expect(response.status == 200)
        let echoed = try echoedHeaders(data)
        #expect(echoed["user-agent"] == "swift-http-pipeline-interop/1.0")
        #expect(echoed["x-interop-suite"] == "httpbin")
        #expect(echoed["x-correlation-id"] == "corr-42")
        #expect(echoed["accept-encoding"] == "gzip, deflate", "the gzip plugin's Accept-Encoding is sent as it is")
    }

    static func bearerRefresh(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        let tokens = RejectedThenFreshTokens()
        let pipeline = try pipeline(over: InteropTransport.make(), sink: sink, credentials: tokens)
        let request = try server.request("/bearer")
        // Four callers meet the rejected token at once; one refresh serves them all.
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let response = try await pipeline.send(request)
                    return (response.status.code, try jsonObject(try await response.bytes())["token"] as? String)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 4)
        #expect(
            statuses.allSatisfy { $0.0 == 200 && InteropCassettes.echoes($0.1, Secrets.freshToken) },
            "httpbin saw the fresh token")
        #expect(tokens.refreshCount == 1)
        let again = try await pipeline.send(request)
        #expect(again.status == 200)
        #expect(tokens.refreshCount == 1, "the fresh token is kept: no second refresh")
        let rejected = sink.records.filter { $0.outcome == .response(status: 401) && $0.url.hasSuffix("/bearer") }
        #expect((1...4).contains(rejected.count), "each caller meets the stale token at most once")
        #expect(
            sink.records.filter { $0.url.hasSuffix("/bearer") }.allSatisfy {
                $0.requestHeaders.contains(.init(name: "Authorization", value: Redaction.mark))
            })
    }

    static func retried(status: Int, _ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        let wire = OrderLog()
        let transport = Pipeline(transport: InteropTransport.make()) { OrderProbe("wire", log: wire) }
        let pipeline = try pipeline(over: transport, sink: sink)
        let response = try await pipeline.send(try server.request("/status/\(status)"))
        #expect(response.status.code == status, "after the last attempt the status is returned, not thrown")
        #expect(wire.count("wire") == 3, "three attempts reached the server")
        let records = sink.records.filter { $0.url.hasSuffix("/status/\(status)") }
        #expect(records.map(\.attempt) == [1, 2, 3])
        #expect(records.map(\.outcome) == Array(repeating: .response(status: status), count: 3))
    }

    static func gzipDeflate(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        let pipeline = try pipeline(over: InteropTransport.make(), sink: sink)
        for (path, flag) in [("/gzip", "gzipped"), ("/deflate", "deflated")] {
            let response = try await pipeline.send(try server.request(path))
            let data = try await response.bytes()
            #expect(response.status == 200)
            #expect(try jsonObject(data)[flag] as? Bool == true, "\(path) is decoded, and only once")
            #expect(response.fields["Content-Encoding"] == nil, "\(path): the head no longer claims a coding")
            #expect(response.fields["Content-Length"] == String(data.count))
        }
    }

    static func brotli(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        let pipeline = try pipeline(over: InteropTransport.make(), sink: sink)
        var request = try server.request("/brotli")
        request.fields["Accept-Encoding"] = "br"
        let response = try await pipeline.send(request)
        let data = try await response.bytes()
        // The gzip plugin never decodes brotli; URLSession (curl on Linux, CFNetwork on Darwin)
        // already has, and the plugin hands the body on as it is.
        var bare = try server.request("/brotli")
        bare.fields["Accept-Encoding"] = "br"
        let bareData = try await InteropTransport.make().send(bare).bytes()
        #expect(response.status == 200)
        #expect(data == bareData, "the pipeline hands on the body URLSession returned, untouched")
        if let object = try? jsonObject(data) {
            #expect(object["brotli"] as? Bool == true)
            #expect(
                response.fields["Content-Encoding"] == nil
                    && response.fields["Content-Length"] == String(data.count),
                "a body already decoded below must not be labelled brotli")
        } else {
            // A transport that leaves brotli encoded: the head still says so.
            #expect(response.fields["Content-Encoding"] == "br")
        }
    }

    static func passwordBody(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        let pipeline = try pipeline(over: InteropTransport.make(), sink: sink)
        var request = try server.request("/anything/sign-in")
        request.method = .post
        request.fields["Content-Type"] = "application/json"
        request.body = HTTPBody(Data(#"{"user":"ada","password":"\#(Secrets.password)"}"#.utf8))
        let response = try await pipeline.send(request)
        let data = try await response.bytes()
        #expect(response.status == 200)
        let echoedJSON = try jsonObject(data)["json"] as? [String: Any]
        #expect(
            InteropCassettes.echoes(echoedJSON?["password"] as? String, Secrets.password),
            "the server received the password")
        let record = sink.records.first { $0.method == "POST" && $0.url.hasSuffix("/anything/sign-in") }
        #expect(record?.requestBody?.contains(#""password":"\#(Redaction.mark)""#) == true)
        #expect(record?.requestBody?.contains(#""user":"ada""#) == true, "the rest of the body is logged")
        #expect(record?.responseBody?.contains(Secrets.password) == false, "nor does httpbin's echo show it")
    }

    static func setCookie(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        // Redirects refused, so the pipeline sees the 302 and its Set-Cookie. (httpbin takes the
        // cookie in the query; `session` is a secret query name, so the URL is redacted too.)
        let refusing = try pipeline(over: InteropTransport.make(), sink: sink, redirects: nil)
        let found = try await refusing.send(try server.request("/cookies/set?session=\(Secrets.cookieValue)"))
        #expect(found.status == 302)
        #expect(
            InteropCassettes.isReplaying
                ? found.fields["Set-Cookie"]?.contains("<redacted-") == true
                : found.fields["Set-Cookie"]?.contains(Secrets.cookieValue) == true,
            "the server set the cookie")
        let record = sink.records.last { $0.outcome == .response(status: 302) && $0.url.contains("/cookies/set") }
        #expect(record?.responseHeaders.contains(.init(name: "Set-Cookie", value: Redaction.mark)) == true)
        // Redirects followed by the pipeline: its cookie jar keeps the 302's cookie and sends it on
        // to /cookies (the same origin), which echoes it, over either transport. (A response
        // carries no URL of its own: that the chain ended at /cookies shows in the body, a
        // `cookies` object only /cookies answers with.)
        let following = try pipeline(over: InteropTransport.make(), sink: sink, cookies: CookieMiddleware())
        let response = try await following.send(try server.request("/cookies/set?session=\(Secrets.cookieValue)"))
        let data = try await response.bytes()
        #expect(response.status == 200)
        #expect(
            echoedCookie("session", in: data, present: true),
            "the chain ended at /cookies, which echoed the cookie the jar kept")
        // A cookie the caller restored itself, under a name no rule knows: the echo still hides it.
        var restored = try server.request("/cookies")
        restored.fields["Cookie"] = "sid=\(Secrets.cookieValue)"
        let restoring = try pipeline(over: InteropTransport.make(), sink: sink)
        let echo = try await restoring.send(restored).bytes()
        #expect(echoedCookie("sid", in: echo))
        let echoRecord = sink.records.last { $0.url.hasSuffix("/cookies") && $0.requestBytes == 0 }
        // The log keeps httpbin's own layout (redaction no longer re-serialises JSON).
        #expect(echoRecord?.responseBody == "{\n  \"cookies\": \"\(Redaction.mark)\"\n}\n")
    }

    /// Whether httpbin's `/cookies` echo holds the cookie `name` with its secret value (or, when
    /// not `present`, holds no such cookie); in a replay, the cassette's placeholder for the whole
    /// `cookies` object (a secret JSON key), which tells only that `/cookies` answered.
    static func echoedCookie(_ name: String, in data: Data, present: Bool = true) -> Bool {
        guard let cookies = try? jsonObject(data)["cookies"] else { return false }
        guard InteropCassettes.isReplaying else {
            return (cookies as? [String: String])?[name] == (present ? Secrets.cookieValue : nil)
        }
        return !present || InteropCassettes.echoes(cookies as? String, Secrets.cookieValue)
    }

    static func redirectChain(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        let pipeline = try pipeline(over: InteropTransport.make(followingRedirects: true), sink: sink)
        // (/redirect/2: the redirect scenarios log /redirect/3 hop by hop into the whole run's sink.)
        let response = try await pipeline.send(try server.request("/redirect/2"))
        let data = try await response.bytes()
        #expect(response.status == 200)
        // A response carries no URL of its own: httpbin's /get echoes the URL the chain ended at.
        #expect(try jsonObject(data)["url"] as? String == (try server.url("/get").absoluteString))
        let records = sink.records.filter { $0.url.hasSuffix("/redirect/2") }
        if TransportKind.current.canFollowRedirects {
            #expect(records.map(\.outcome) == [.response(status: 200)], "URLSession follows; one exchange is logged")
        } else {
            // A transport that never follows hands the 302 back: the pipeline follows it as a hop.
            #expect(records.map(\.outcome) == [.response(status: 302)], "the pipeline follows; the first hop is logged")
        }
    }

    static func binaryBody(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        let pipeline = try pipeline(over: InteropTransport.make(), sink: sink)
        let response = try await pipeline.send(try server.request("/bytes/1024"))
        let data = try await response.bytes()
        #expect(response.status == 200 && data.count == 1024)
        let record = sink.records.first { $0.url.hasSuffix("/bytes/1024") }
        #expect(record?.responseBytes == 1024)
        #expect(record?.responseBody == "<binary body: 1024 bytes, application/octet-stream>")
    }

    static func cancellation(_ server: HTTPBin, _ sink: InMemoryLogSink) async throws {
        let pipeline = try pipeline(over: InteropTransport.make(), sink: sink)
        let request = try server.request("/delay/10")
        let clock = ContinuousClock()
        let start = clock.now
        let call = Task { try await pipeline.send(request) }
        try await Task.sleep(for: .milliseconds(200))
        // Timed from the cancel: on a loaded machine (the whole suite at once on two cores) the
        // sleep above may end late, which says nothing about cancellation.
        let cancelled = clock.now
        call.cancel()
        let result = await call.result
        let elapsed = cancelled.duration(to: clock.now)
        let timing = "cancelled \(start.duration(to: cancelled)) after the start, returned \(elapsed) later"
        #expect(throws: CancellationError.self, "\(timing)") { try result.get() }
        #expect(elapsed < .seconds(3), "\(timing), not at the end of the 10 s delay")
        let record = sink.records.first { $0.url.hasSuffix("/delay/10") }
        #expect(record?.outcome == .failure(kind: "cancelled"))
        #expect(record?.attempt == 1, "a cancelled attempt is not retried")
    }
}

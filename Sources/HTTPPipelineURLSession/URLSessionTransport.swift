public import HTTPPipeline

#if canImport(FoundationNetworking)
public import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// The production transport: sends requests with a `URLSession` and streams response bodies as
/// they arrive.
///
/// - **Streaming.** `send` returns when the response head arrives. A body whose
///   `Content-Length` is at most ``bufferingLimit`` is read first and handed over buffered (the
///   fast path for API calls); a longer one, or one of unknown length, comes as a single-pass
///   stream of chunks as the network delivers them. When the reader falls more than 4 MiB behind,
///   the bytes it has not taken yet go to a spill file in ``spoolDirectory`` (unlinked at once,
///   so nothing is left behind) and come back in order, so the transport's own memory stays flat
///   however large the body: URLSession on Linux cannot pause a transfer (`suspend()`
///   mid-transfer ends in a fatal error in FoundationNetworking). Dropping a streamed body
///   unread, or cancelling the task reading it, cancels the transfer. On Linux,
///   FoundationNetworking itself keeps about 400 bytes for each 16 KiB it receives (a new
///   dispatch timer a chunk) until the transfer ends: about 26 MB for a 1 GiB download. For
///   downloads that large on Linux, use `CurlTransport` (`HTTPPipelineCurl`), whose memory
///   stays flat.
/// - **Request bodies.** A buffered body is sent as it is. A streamed one is read once (a
///   single-pass stream is never read again) into a temporary file that is uploaded and then
///   removed: `URLSession` on Linux has no way to take bytes from a stream while it sends, so the
///   upload starts when the stream ends, with memory flat.
/// - **Progress.** A request whose context has a `progress` observer
///   (`HTTPTransferProgress`) is told as its body goes out and the response comes in.
/// - **Files.** Upload from a file with `HTTPBody.init(contentsOf:chunkSize:)`; download to one
///   with `HTTPBody.write(to:limit:)`, which streams to a temporary file and moves it into place.
/// - **Cancelling** the calling task cancels the underlying request at once and throws
///   `CancellationError`. On Linux the transport's session has no `URLCache` (a configuration's
///   cache is not used, and a request's `cachePolicy` has nothing to consult): FoundationNetworking
///   traps the process when a task is cancelled while it waits for its cache lookup or as it
///   completes, and the transport's cancels are safe only without a cache. Responses are not
///   cached below the pipeline there, authenticated ones included; a caching layer, where one is
///   wanted, goes in the pipeline, where it sees what the other layers do.
/// - A request whose URL is not absolute `http`/`https` with a host, or whose fields cannot be
///   sent (a name that is not a token, a value holding CR, LF or NUL), fails with
///   `HTTPTransportError.invalidRequest(reason:)` before anything is sent. The scheme is
///   compared ignoring case, as RFC 3986 says, and sent in lower case.
/// - A reply that is not an `HTTPURLResponse` fails with `HTTPTransportError.nonHTTPResponse`.
/// - Network failures surface as the `URLError` the session reported (timed out, connection
///   lost, cannot connect, …), so retry policies can inspect their codes; one that happens in
///   the middle of a streamed body is thrown by the read that meets it. On Linux a body cut
///   short, which FoundationNetworking reports as `URLError.unknown` ("transfer closed with …
///   remaining to read"), becomes `networkConnectionLost` with the message kept, so retry reads
///   it as transient.
/// - **Sent at most once.** The URL loading system sends a request again on a new connection
///   when the kept-alive one it reused closes before any answer. A request
///   `HTTPRequest.mayBeResentByTransport` does not allow (a POST without an `Idempotency-Key`)
///   goes over a session of its own instead, whose first connection is new, so it reaches the
///   server at most once (the cost: a new connection for each such request); when its connection
///   dies after it was sent, the call fails with `HTTPTransportError.outcomeUnknown`.
/// - **Deadlines.** A request's `HTTPRequestContext.deadline` ends the transfer 250 ms after it
///   passes with `URLError.timedOut`, as a backstop to the layer that set it.
/// - **Challenges** are not answered: a 401 comes back as it is, for the pipeline's auth layer.
///   (On Linux, FoundationNetworking never ended a task whose challenge went unanswered.)
/// - **Metrics.** The response carries the attempt's `HTTPTransferMetrics`
///   (`response.transferMetrics`) as this side of URLSession sees them: the first and last
///   byte's times, the body bytes handed over, the body bytes sent. FoundationNetworking reports
///   no phases below it, so name resolution, connect, TLS handshake, request start, reuse, the
///   protocol, the address and the wire byte counts stay `nil`.
/// - HTTP error statuses are returned, not thrown.
/// - **Redirects** are handed back as the 3xx response they are, for a redirect layer in the
///   pipeline to follow (``followsRedirects`` is `false` by default). A 3xx whose `Location` is
///   missing or unusable comes back as it is too, followed or not, its cookies kept; on Linux
///   with an empty body (FoundationNetworking drops the body of such a response).
/// - **No cookies of its own** by default: the transport adds no `Cookie` field and stores no
///   cookie a response sets, leaving cookies to the pipeline (`CookieMiddleware` in
///   `HTTPPipelineCookies`, which behaves the same over every transport); a `Cookie` field a
///   request carries is sent as it is. With ``handlesCookies`` (`init(…, handlesCookies: true)`),
///   the compatibility behaviour: the transport keeps cookies in its configuration's
///   `httpCookieStorage`, each bound to the origin that set it (scheme, host and port, where
///   URLSession's own handling keys them by host alone and sends a cookie one server set to every
///   other port of its host): a cookie a response sets, a 3xx's included, is stored with the
///   response's port as its `portList`, and a request without a `Cookie` field of its own
///   carries the stored cookies whose port list holds its port, whose domain and path match its
///   URL, that have not expired, and only over https the `Secure` ones. The configuration's
///   `httpShouldSetCookies = false`, or an `httpCookieAcceptPolicy` of `.never`, turns even that
///   off. A storage holds one cookie per name, domain and path, so two ports of a host that set
///   a cookie of the same name replace each other's. The same rule holds for the hops of a
///   redirect `URLSession` follows.
///
/// `URLSession` already inflates `gzip`, `deflate` and `br` bodies and keeps the `Content-Encoding`
/// header: the transport marks such a response `HTTPResponseHead.decodedByTransport`, so that the
/// gzip plugin applies its limits to the decoded bytes and never decodes them again.
///
/// **Below the pipeline on Linux**, FoundationNetworking keeps the transport from parts of the
/// transport contract (`TransportConformance` in `HTTPPipelineTesting`, which its tests run with
/// these as documented exceptions):
/// - Fields travel in dictionaries: a repeated request field goes as one line joined with `, `,
///   and a response's repeated fields come back as one value joined with `, `, in no set order;
///   `Set-Cookie` is split again where a new `name=value` begins, so a cookie value that itself
///   holds `, name=value` arrives as two.
/// - It adds `Connection`, `User-Agent` and `Accept-Language` to every request, and libcurl
///   below it `Accept` and `Accept-Encoding`, unless the request has its own.
/// - An interim `103 Early Hints` head comes back as the response.
/// - A chunked body with trailer fields traps the process ("Transfer completed, but there's no
///   response"). Use `CurlTransport` against servers that send trailers.
/// - Requests go through the proxy `http_proxy`, `https_proxy` or `all_proxy` names (libcurl reads
///   them; FoundationNetworking sets no proxy option, whatever `connectionProxyDictionary` says),
///   as they go through the system's proxy on Darwin. `CurlTransport` uses a proxy only when its
///   configuration says so.
/// - A compressed body it inflates goes on being inflated after the caller drops it: cancelling
///   waits for the session's work, on a queue every session of the process shares. A 1 GiB gzip
///   bomb stops at the gzip plugin's limit for its caller, but every URLSession request of the
///   process then waits about 37 s on this machine. Use `CurlTransport` for servers you do not
///   trust: the gzip plugin inflates its bytes and stops the transfer at the limit.
///
/// Beyond about four concurrent requests to one host, a session with default settings opens new
/// connections instead of reusing them; pass a configuration that sets
/// `httpMaximumConnectionsPerHost` where concurrency matters.
public struct URLSessionTransport: HTTPTransport {
    /// The most bytes of a body with a known `Content-Length` that is read before `send` returns
    /// and handed over buffered; longer bodies stream.
    public let bufferingLimit: Int
    /// Where streamed request bodies are written before they are uploaded, and where response
    /// bytes a slow reader has not taken yet are kept; `nil` for the system's temporary directory.
    public let spoolDirectory: URL?
    /// Whether `URLSession` follows redirects below the pipeline, or hands each 3xx response back
    /// to it (the default).
    public let followsRedirects: Bool

    /// Whether the transport keeps and sends cookies itself, in its configuration's
    /// `httpCookieStorage` (the compatibility behaviour); `false` by default, leaving cookies to
    /// the pipeline.
    public var handlesCookies: Bool { owner.router.cookies.isOn }

    @usableFromInline let owner: SessionOwner

    /// The session that sends every request; its delegate belongs to the transport. Its
    /// configuration is the one the transport was given, except that `httpShouldSetCookies` is
    /// `false` and `httpCookieAcceptPolicy` is `.never` (URLSession adds and stores no cookie;
    /// see ``handlesCookies``) and, on Linux, `urlCache` is `nil` (see "Cancelling" above).
    public var session: URLSession { owner.session }

    /// Creates a transport.
    ///
    /// Without a configuration, every such transport shares one process-wide session (as
    /// `URLSession.shared` is shared), so creating transports costs nothing and connections are
    /// reused across them; its configuration is `.default` with 64 connections per host, since a
    /// streamed body holds its connection until it is read to its end or dropped. With a
    /// configuration, the transport has a session of its own, invalidated when the last copy of
    /// the transport is gone: give long-lived streams (server-sent events, log tails) a
    /// transport of their own so they never hold connections other calls wait for.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration; `nil` (the default) for the shared session,
    ///     which has the `.default` configuration. On Linux its `urlCache` is not used.
    ///   - bufferingLimit: The most bytes of a body of known length handed over buffered; 256 KiB
    ///     by default.
    ///   - spoolDirectory: Where streamed request bodies are written before they are uploaded
    ///     (each file is removed when its request ends); the system's temporary directory by
    ///     default.
    ///   - followsRedirects: Whether `URLSession` follows redirects below the pipeline; `false`
    ///     by default: a 3xx response is handed back as it came, `Location` and `Set-Cookie`
    ///     included, for a redirect layer (`RedirectMiddleware`) to follow hop by hop. With `true`,
    ///     `URLSession` follows them where no layer sees them: no log records the hops, no auth
    ///     layer decides what goes where, and `URLSession` sends the request's own
    ///     `Authorization` and `Cookie` fields on to another host (stored cookies still go only
    ///     to the origin that set them).
    ///   - handlesCookies: Whether the transport keeps and sends cookies itself, in the
    ///     configuration's `httpCookieStorage` (the `.default` configuration's shared storage
    ///     without one), as transports before `HTTPPipelineCookies` did; `false` by default. Such
    ///     a transport has a session of its own.
    public init(
        configuration: URLSessionConfiguration? = nil,
        bufferingLimit: Int = 256 << 10,
        spoolDirectory: URL? = nil,
        followsRedirects: Bool = false,
        handlesCookies: Bool = false
    ) {
        let owner: SessionOwner
        if handlesCookies {
            let configuration = configuration ?? SessionOwner.sharedConfiguration()
            owner = SessionOwner(configuration: configuration, cookies: SessionCookieJar(configuration))
        } else {
            owner = configuration.map { SessionOwner(configuration: $0) } ?? SessionOwner.shared
        }
        self.init(
            owner: owner, bufferingLimit: bufferingLimit, spoolDirectory: spoolDirectory,
            followsRedirects: followsRedirects)
    }

    init(
        owner: SessionOwner, bufferingLimit: Int = 256 << 10, spoolDirectory: URL? = nil, followsRedirects: Bool = false
    ) {
        self.followsRedirects = followsRedirects
        self.owner = owner
        self.bufferingLimit = max(bufferingLimit, 0)
        self.spoolDirectory = spoolDirectory
    }

    /// Creates a transport with a session of its own that has `session`'s configuration.
    ///
    /// The transport needs its own delegate to stream bodies, so it never sends through `session`
    /// itself; only its configuration (timeouts, connection limits, cookies; on Apple platforms the
    /// cache, on Linux no cache) is used, and
    /// `session`'s delegate is not consulted (no redirect, challenge or metrics callbacks). The
    /// ``session`` of a `URLSessionTransport` says `httpShouldSetCookies = false` and
    /// `httpCookieAcceptPolicy = .never`; given one, the new transport handles cookies as that
    /// transport does (``handlesCookies``). Given another session, it handles none.
    ///
    /// - Parameter session: The session whose configuration to use.
    public init(session: URLSession) {
        // Another transport's session: its configuration no longer says how cookies go, its
        // cookie jar does.
        let cookies = (session.delegate as? SessionRouter)?.cookies ?? .off
        self.init(owner: SessionOwner(configuration: session.configuration, cookies: cookies))
    }

    /// Sends a request with the session.
    ///
    /// The head is converted to a `URLRequest` once (one `allHTTPHeaderFields` assignment), and
    /// the `HTTPURLResponse` to an `HTTPResponseHead` once.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response: its head, and its body buffered or streaming.
    /// - Throws: `HTTPTransportError` for a request that cannot be sent or a non-HTTP reply,
    ///   `CancellationError` when the calling task is cancelled, `URLError` for network failures,
    ///   or what reading a streamed request body threw.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = try Self.validated(URLRequest(request.head))
        // Cookies are the transport's: a caller's own field goes as it is, else the stored
        // cookies of the request's origin (see SessionCookieJar).
        urlRequest.httpShouldHandleCookies = false
        let callerSetCookies = request.head.fields["Cookie"] != nil
        if !callerSetCookies, let url = urlRequest.url, let cookies = owner.router.cookies.field(for: url) {
            urlRequest.setValue(cookies, forHTTPHeaderField: "Cookie")
        }
        var spool: RequestSpool?
        if let body = request.body {
            if let data = body.bufferedData {
                urlRequest.httpBody = data
            } else {
                spool = try await RequestSpool(body, in: spoolDirectory ?? FileManager.default.temporaryDirectory)
            }
        }
        defer { spool?.remove() }
        try Task.checkCancellation()
        let directory = spoolDirectory ?? FileManager.default.temporaryDirectory
        let exchange = SessionExchange(
            progress: request.context.progress, spillDirectory: directory, followsRedirects: followsRedirects,
            callerSetCookies: callerSetCookies)
        // The URL loading system sends a request again on a new connection when the kept-alive
        // one it reused closes before any answer. A request that may not be resent goes over a
        // session of its own, whose first connection is new, so it is sent once; the session
        // ends when its transfer does.
        let resendable = request.mayBeResentByTransport
        let owner =
            resendable ? owner : SessionOwner(configuration: session.configuration, cookies: owner.router.cookies)
        let task: URLSessionTask =
            if let spool { owner.session.uploadTask(with: urlRequest, fromFile: spool.file) } else {
                owner.session.dataTask(with: urlRequest)
            }
        if let deadline = request.context.deadline {
            // A little after the deadline, as curl's timeout is: the layer that set it cuts the
            // call first with its own error; this ends the transfer if nothing else does.
            exchange.expire(after: deadline.remaining + .milliseconds(250))
        }
        let response: URLResponse
        do {
            response = try await exchange.start(task, router: owner.router)
        } catch let error as URLError where !resendable && Self.diedUnderRequest.contains(error.code) {
            throw HTTPTransportError.outcomeUnknown
        }
        guard let http = response as? HTTPURLResponse else {
            exchange.cancelTransfer()
            throw HTTPTransportError.nonHTTPResponse
        }
        // The response carries the attempt's metrics (those this side of URLSession knows).
        func measured(_ response: HTTPResponse) -> HTTPResponse {
            var response = response
            response.context.transferRecord = exchange.record
            return response
        }
        var head = HTTPResponseHead(http)
        // The URL loading system decodes every content coding it knows and fails on others (curl
        // on Linux: gzip, deflate, br, zstd), so a body it hands over is decoded: say so, so that
        // the gzip plugin applies its limits and never decodes it again.
        head.decodedByTransport = Self.isEncoded(head.fields)
        // These have no body, whatever their Content-Length says (RFC 9110 §6.4.1).
        if request.method == .head || (100..<200).contains(head.status.code) || head.status == 204 || head.status == 304
        {
            return measured(HTTPResponse(head: head, body: .empty))
        }
        // The wire length decides buffering. URLSession decodes a body it knows the coding of,
        // and then the wire length says nothing about the bytes handed over: a streamed one has
        // no length, and a buffered one may grow past the limit (then the rest streams).
        let wireLength = http.expectedContentLength >= 0 ? Int(http.expectedContentLength) : nil
        let encoded = head.decodedByTransport
        let reader = SessionExchange.Reader(exchange)
        guard let length = wireLength, length <= bufferingLimit else {
            return measured(
                HTTPResponse(
                    head: head,
                    body: HTTPBody(stream: SessionExchange.Chunks(reader: reader), length: encoded ? nil : wireLength)))
        }
        var data = Data(capacity: length)
        while let chunk = try await reader.next() {
            data.append(chunk)
            if data.count > bufferingLimit {
                // The server sent more than it announced: the rest streams, after what was read.
                return measured(
                    HTTPResponse(
                        head: head, body: HTTPBody(stream: SessionExchange.Chunks(reader: reader, first: data))))
            }
        }
        return measured(HTTPResponse(head: head, body: HTTPBody(data)))
    }

    /// Whether `fields` name a content coding other than `identity`.
    /// The failures of a connection that died under a request before its answer began: the
    /// server may have processed it.
    static let diedUnderRequest: Set<URLError.Code> = [.networkConnectionLost, .badServerResponse]

    static func isEncoded(_ fields: HTTPFields) -> Bool {
        guard let codings = fields["Content-Encoding"] else { return false }
        return codings.split(separator: ",").contains {
            let coding = $0.trimmingCharacters(in: .whitespaces)
            return !coding.isEmpty && coding.lowercased() != "identity"
        }
    }

    /// The error a caller gets for what the session reported: a body the session could not
    /// decode becomes ``HTTPTransportError/contentDecodingFailed(reason:)`` (on Linux the session
    /// reports it as `URLError` code -1 with libcurl's message, on Darwin as
    /// `cannotDecodeContentData`); anything else as it is.
    static func typed(_ error: (any Error)?) -> (any Error)? {
        guard let error = error as? URLError else { return error }
        if error.code == .cannotDecodeContentData {
            return HTTPTransportError.contentDecodingFailed(reason: "the URL loading system could not decode it")
        }
        guard error.code == .unknown else { return error }
        let message = (error as NSError).localizedDescription
        let marker = "Error while processing content unencoding: "
        if let range = message.range(of: marker) {
            return HTTPTransportError.contentDecodingFailed(reason: String(message[range.upperBound...]))
        }
        // FoundationNetworking reports a body cut short (curl's "transfer closed with 900 bytes
        // remaining to read", "… with outstanding read data remaining") as an unknown error,
        // which no retry policy reads as transient: it is a lost connection.
        if message.hasPrefix("transfer closed with") {
            return URLError(.networkConnectionLost, userInfo: (error as NSError).userInfo)
        }
        return error
    }

    /// The request as the session is to get it: checked, with its URL's scheme in lower case.
    ///
    /// - Throws: `HTTPTransportError.invalidRequest(reason:)` when it cannot be sent.
    static func validated(_ request: URLRequest) throws(HTTPTransportError) -> URLRequest {
        guard let url = request.url else {
            throw HTTPTransportError.invalidRequest(reason: "the request has no URL")
        }
        guard let scheme = url.scheme, case let lowered = scheme.lowercased(), lowered == "http" || lowered == "https"
        else {
            throw HTTPTransportError.invalidRequest(reason: "the URL's scheme is not http or https")
        }
        guard let host = url.host, !host.isEmpty else {
            throw HTTPTransportError.invalidRequest(reason: "the URL has no host")
        }
        guard scheme != lowered else { return request }
        // Only the scheme changes: the rest of the URL keeps its exact text (its encoding included).
        let text = url.absoluteString
        guard text.hasPrefix(scheme + ":"), let normalized = URL(string: lowered + text.dropFirst(scheme.count)) else {
            throw HTTPTransportError.invalidRequest(reason: "the URL's scheme could not be put in lower case")
        }
        var sent = request
        sent.url = normalized
        return sent
    }
}

import CHTTPPipelineCurl
import Foundation
import HTTPPipeline

/// One libcurl easy handle and what its current transfer needs on the engine thread: the
/// header lines, the head being parsed, a short body being gathered, the request body's source,
/// and which directions are paused. Used on the engine thread only (``CurlEventLoop``), so
/// nothing here is locked; reused from one transfer to the next.
final class CurlEasy {
    /// How the response body goes to the caller, decided when the head ends.
    enum Mode {
        /// Still reading the head.
        case head
        /// A body of known length within the buffering limit (or none): gathered here and
        /// handed over with the head when the transfer ends.
        case buffered
        /// The head went to the caller; the body streams through the transfer.
        case streaming
    }

    let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private(set) var transfer: CurlTransfer?
    private var headerList = CurlHeaderList()
    var mode = Mode.head
    var status = 0
    var fields: [HTTPField] = []
    /// The head, once it ended.
    var head: HTTPResponseHead?
    var buffer = Data()
    var uploaded = 0
    var receivePaused = false
    var sendPaused = false
    var progress = HTTPTransferProgress()
    /// How many times libcurl started sending the current request (more than once when it
    /// sends it again on a new connection).
    private var requestsStarted = 0
    /// Whether the transfer was aborted because the request may not be sent again.
    private var refusedResend = false

    init() {
        // curl_easy_init fails only when memory runs out.
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CHTTPPipelineCurl_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CHTTPPipelineCurl_ERROR_SIZE))
    }

    /// Sets the handle up for `transfer`; returns the error when libcurl refuses an option.
    func prepare(for transfer: CurlTransfer, configuration: CurlTransport.Configuration) -> CurlTransportError? {
        self.transfer = transfer
        let request = transfer.request
        errorBuffer[0] = 0
        let me = Unmanaged.passUnretained(self).toOpaque()
        var result = CURLE_OK
        func set(_ option: CURLoption, _ value: Int) {
            if result == CURLE_OK { result = CHTTPPipelineCurl_setLong(handle, option, value) }
        }
        func set(_ option: CURLoption, _ value: String) {
            if result == CURLE_OK { result = value.withCString { CHTTPPipelineCurl_setPointer(handle, option, $0) } }
        }
        func set(_ option: CURLoption, pointer: UnsafeRawPointer?) {
            if result == CURLE_OK { result = CHTTPPipelineCurl_setPointer(handle, option, pointer) }
        }
        set(CURLOPT_URL, request.url)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_ERRORBUFFER, pointer: errorBuffer)
        CHTTPPipelineCurl_setWriteFunction(handle, CURLOPT_HEADERFUNCTION, CurlCallbacks.header)
        set(CURLOPT_HEADERDATA, pointer: me)
        CHTTPPipelineCurl_setWriteFunction(handle, CURLOPT_WRITEFUNCTION, CurlCallbacks.write)
        set(CURLOPT_WRITEDATA, pointer: me)
        set(CURLOPT_HTTPHEADER, pointer: headerList.link(request.headerLines))
        // A body makes libcurl upload, which it sends as PUT unless told the method: a GET with a
        // body (a search endpoint's) names GET itself. A HEAD sends no body.
        let hasBody: Bool
        if case .none = request.body { hasBody = false } else { hasBody = request.method != .head }
        switch request.method {
        case .get: if hasBody { set(CURLOPT_CUSTOMREQUEST, "GET") }
        case .head: set(CURLOPT_NOBODY, 1)
        default: set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        switch hasBody ? request.body : .none {
        case .none: break
        case .buffered(let data):
            set(CURLOPT_UPLOAD, 1)
            CHTTPPipelineCurl_setReadFunction(handle, CurlCallbacks.read)
            set(CURLOPT_READDATA, pointer: me)
            CHTTPPipelineCurl_setSeekFunction(handle, CurlCallbacks.seek)
            set(CURLOPT_SEEKDATA, pointer: me)
            if result == CURLE_OK { result = CHTTPPipelineCurl_setOffset(handle, CURLOPT_INFILESIZE_LARGE, data.count) }
            progress.expectedSentBytes = Int64(data.count)
        case .stream(let length):
            set(CURLOPT_UPLOAD, 1)
            CHTTPPipelineCurl_setReadFunction(handle, CurlCallbacks.read)
            set(CURLOPT_READDATA, pointer: me)
            if let length, result == CURLE_OK {
                result = CHTTPPipelineCurl_setOffset(handle, CURLOPT_INFILESIZE_LARGE, length)
                progress.expectedSentBytes = Int64(length)
            }
        }
        // libcurl sends a request again on a new connection when the kept-alive one it reused
        // closes before any answer (the body rewound through the seek callback): a request that
        // may not be resent (a POST without an Idempotency-Key) is stopped before its second
        // start instead, and its caller learns the outcome is unknown.
        if !request.mayBeResent, result == CURLE_OK {
            if CHTTPPipelineCurl_setPrerequestFunction(handle, CurlCallbacks.prerequest) == CURLE_OK {
                set(CURLOPT_PREREQDATA, pointer: me)
            } else {
                // Before libcurl 7.80: a connection of its own, never a reused one, so never sent twice.
                set(CURLOPT_FRESH_CONNECT, 1)
            }
        }
        set(CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeoutMilliseconds)
        if let timeout = request.timeoutMilliseconds { set(CURLOPT_TIMEOUT_MS, timeout) }
        configure(configuration, https: request.url.utf8.starts(with: "https:".utf8))
        guard result == CURLE_OK else { return transportError(for: result) }
        return nil
    }

    private func configure(_ configuration: CurlTransport.Configuration, https: Bool) {
        let handle = handle
        func set(_ option: CURLoption, _ value: Int) { CHTTPPipelineCurl_setLong(handle, option, value) }
        func set(_ option: CURLoption, _ value: String) {
            value.withCString { _ = CHTTPPipelineCurl_setPointer(handle, option, $0) }
        }
        if configuration.allowsHTTP2 {
            set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
            // Over TLS, a second request waits for the first connection's ALPN answer and
            // shares it when it speaks HTTP/2, rather than opening another at once.
            if https { set(CURLOPT_PIPEWAIT, 1) }
        } else {
            set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        }
        switch configuration.proxy {
        case .none: set(CURLOPT_PROXY, "")
        case .environment:
            // A CONNECT tunnel's own answer ("200 Connection established") is not the response.
            set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        case .url(let url):
            set(CURLOPT_PROXY, url)
            set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        }
        if let authorities = configuration.certificateAuthorities { set(CURLOPT_CAINFO, authorities) }
        if let client = configuration.clientCertificate {
            set(CURLOPT_SSLCERT, client.certificateFile)
            if let key = client.keyFile { set(CURLOPT_SSLKEY, key) }
            if let password = client.keyPassword { set(CURLOPT_KEYPASSWD, password) }
        }
    }

    /// The error for a libcurl result: its message, and the transfer's detail when there is one.
    func error(for code: CURLcode) -> any Error {
        // Aborted by the read callback: the request body's own error is the reason.
        if code == CURLE_ABORTED_BY_CALLBACK, let failure = transfer?.upload?.failure { return failure }
        if code == CURLE_ABORTED_BY_CALLBACK, refusedResend { return HTTPTransportError.outcomeUnknown }
        // The connection died under a request that may not be resent, before its answer began:
        // whether the server processed it is unknown, and the caller is told so.
        if head == nil, transfer?.request.mayBeResent == false,
            CurlTransportError.category(of: Int(code.rawValue)) == .connectionLost
        {
            return HTTPTransportError.outcomeUnknown
        }
        return transportError(for: code)
    }

    private func transportError(for code: CURLcode) -> CurlTransportError {
        var message = String(cString: curl_easy_strerror(code))
        if errorBuffer[0] != 0 { message += ": " + String(cString: errorBuffer) }
        return CurlTransportError(code: Int(code.rawValue), message: message)
    }

    /// The head and whole body of a buffered response, once the transfer ended.
    func bufferedHead() -> CurlTransfer.Head? {
        guard mode == .buffered, let head else { return nil }
        return .buffered(head, buffer)
    }

    /// Whether libcurl may start sending the request: the first time, and again only when the
    /// request may be resent.
    func mayStartRequest() -> Bool {
        requestsStarted += 1
        guard requestsStarted > 1, transfer?.request.mayBeResent == false else { return true }
        refusedResend = true
        return false
    }

    /// Unpauses one direction, keeping the other as it is.
    func resume(_ direction: CurlEngine.Direction) {
        switch direction {
        case .receive: receivePaused = false
        case .send: sendPaused = false
        }
        let mask =
            (receivePaused ? Int32(CHTTPPipelineCurl_PAUSE_RECV) : 0)
            | (sendPaused ? Int32(CHTTPPipelineCurl_PAUSE_SEND) : 0)
        // May call the write or read callback at once, which may pause again.
        curl_easy_pause(handle, mask)
    }

    /// Forgets the transfer; the handle keeps its connection cache ties, DNS and TLS sessions.
    func reset() {
        curl_easy_reset(handle)
        transfer = nil
        mode = .head
        status = 0
        fields.removeAll(keepingCapacity: true)
        head = nil
        buffer = Data()
        uploaded = 0
        receivePaused = false
        sendPaused = false
        progress = HTTPTransferProgress()
        requestsStarted = 0
        refusedResend = false
    }

    func cleanup() {
        curl_easy_cleanup(handle)
        headerList.deallocate()
        errorBuffer.deallocate()
    }
}

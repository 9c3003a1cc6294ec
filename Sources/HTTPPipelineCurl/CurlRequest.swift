import Foundation
import HTTPPipeline

/// A request as the engine thread sets it on an easy handle: checked, its fields as header
/// lines, its timeouts in milliseconds. Built on the caller's task, so the engine thread does no
/// Swift string work beyond handing C strings to libcurl.
struct CurlRequest: Sendable {
    /// How the body goes.
    enum Body: Sendable {
        /// No body and no `Content-Length` (GET, HEAD, DELETE, …).
        case none
        /// These bytes, with their `Content-Length`.
        case buffered(Data)
        /// From a ``CurlUpload``: with a `Content-Length` when the length is known, else chunked
        /// (HTTP/1.1) or a stream ended by the last frame (HTTP/2).
        case stream(length: Int?)
    }

    let url: String
    let method: HTTPMethod
    let headerLines: CurlHeaderLines
    let body: Body
    let connectTimeoutMilliseconds: Int
    /// The total timeout: the configuration's or the deadline's remaining time, whichever is
    /// less; `nil` for none.
    let timeoutMilliseconds: Int?
    let bufferingLimit: Int
    let progress: (@Sendable (HTTPTransferProgress) -> Void)?
    /// Whether libcurl may send the request again on a new connection
    /// (`HTTPRequest.mayBeResentByTransport`).
    let mayBeResent: Bool

    /// - Throws: ``HTTPTransportError/invalidRequest(reason:)`` for a URL that is not absolute
    ///   `http`/`https` with a host, or a field that cannot be sent.
    init(_ request: HTTPRequest, configuration: CurlTransport.Configuration) throws(HTTPTransportError) {
        let url = request.url
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidRequest(reason: "the URL's scheme is not http or https")
        }
        guard let host = url.host, !host.isEmpty else { throw .invalidRequest(reason: "the URL has no host") }
        self.url = url.absoluteString
        try request.method.checkSendable()
        method = request.method
        headerLines = try CurlHeaderLines(request.fields)
        switch request.body {
        case nil:
            let needsLength = request.method == .post || request.method == .put || request.method == .patch
            body = needsLength ? .buffered(Data()) : .none
        case let body?:
            if let data = body.bufferedData {
                self.body = .buffered(data)
            } else {
                self.body = .stream(length: body.length)
            }
        }
        connectTimeoutMilliseconds = Self.milliseconds(configuration.connectTimeout)
        var total = configuration.timeout.map(Self.milliseconds)
        if let deadline = request.context.deadline {
            // A little after the deadline: the layer that set it cuts the call first and throws
            // its own `HTTPTimeoutError`; libcurl's timeout is the backstop.
            let remaining = Self.milliseconds(deadline.remaining + Self.deadlineGrace)
            total = min(total ?? remaining, remaining)
        }
        timeoutMilliseconds = total
        bufferingLimit = max(configuration.bufferingLimit, 0)
        progress = request.context.progress
        mayBeResent = request.mayBeResentByTransport
    }

    /// How long after a context's deadline libcurl's own timeout ends the transfer.
    static let deadlineGrace = Duration.milliseconds(250)

    /// At least 1 ms: libcurl reads 0 as "no timeout".
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64(Int.max / 1_000 - 1) else { return Int.max / 2 }
        return max(1, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}

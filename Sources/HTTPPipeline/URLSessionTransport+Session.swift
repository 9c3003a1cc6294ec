#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// Owns a transport's session: made with the transport's delegate, invalidated when the last
/// copy of the transport is gone (a session keeps its delegate until it is invalidated).
@usableFromInline
final class SessionOwner: Sendable {
    /// The session transports made without a configuration share; it lives as long as the process.
    /// Its configuration is `.default` with up to 64 connections per host instead of 6: each
    /// streamed body holds its connection until it is read or dropped, and every transport made
    /// without a configuration shares this pool.
    static let shared = SessionOwner(configuration: sharedConfiguration())

    private static func sharedConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = 64
        return configuration
    }

    let router = SessionRouter()
    let session: URLSession

    init(configuration: URLSessionConfiguration) {
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}

/// The session's delegate: hands each task's events to the exchange waiting for them.
///
/// `@unchecked Sendable` because `NSObject` is not `Sendable`; its one stored property is a
/// `Locked` table, so every access to its state is under that lock, from whatever queue
/// URLSession calls it on.
final class SessionRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let exchanges = Locked([Int: SessionExchange]())

    func register(_ exchange: SessionExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> SessionExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse { Self.storeCookies(of: http, in: session) }
        exchange(for: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // Refused, the 3xx itself is the response, with its body.
        let follows = exchange(for: task)?.followsRedirects ?? false
        guard follows else { return completionHandler(nil) }
        Self.storeCookies(of: response, in: session)
        completionHandler(Self.withCookies(request, from: session))
    }

    /// Keeps the cookies a response sets, as the session's configuration asks. (URLSession on
    /// Linux does it only for tasks with a completion handler, not for delegate-driven ones:
    /// measured, a 302's cookie never reached the redirect's target, nor later requests.)
    static func storeCookies(of response: HTTPURLResponse, in session: URLSession) {
        let configuration = session.configuration
        guard configuration.httpShouldSetCookies, configuration.httpCookieAcceptPolicy != .never,
            let storage = configuration.httpCookieStorage, let url = response.url
        else { return }
        var fields: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let name = key as? String, let value = value as? String { fields[name] = value }
        }
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: url)
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }

    /// `request` with the session's stored cookies for its URL, unless it already has a `Cookie`.
    static func withCookies(_ request: URLRequest, from session: URLSession) -> URLRequest {
        let configuration = session.configuration
        guard configuration.httpShouldSetCookies, request.value(forHTTPHeaderField: "Cookie") == nil,
            let storage = configuration.httpCookieStorage, let url = request.url,
            let cookies = storage.cookies(for: url), !cookies.isEmpty
        else { return request }
        var request = request
        for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.receive(data)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(for: task)?.sent(totalBytesSent, of: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(error)
    }
}

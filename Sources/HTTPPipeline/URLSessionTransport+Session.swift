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

    let router: SessionRouter
    let session: URLSession

    /// - Parameters:
    ///   - configuration: The session's configuration.
    ///   - cookies: The cookie settings to apply; `configuration`'s own when `nil`.
    init(configuration: URLSessionConfiguration, cookies: SessionCookieJar? = nil) {
        router = SessionRouter(cookies: cookies ?? SessionCookieJar(configuration))
        // The transport sends cookies itself: URLSession on Linux ignores a request's
        // `httpShouldHandleCookies` and puts every cookie stored for the host in place of the
        // request's own `Cookie` field, unless its configuration says not to. (A copy, so the
        // caller's configuration is left as it was; `copy()` of one is always one.)
        let own = configuration.copy() as? URLSessionConfiguration ?? configuration
        own.httpShouldSetCookies = false
        session = URLSession(configuration: own, delegate: router, delegateQueue: nil)
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
    /// The cookies of the session's requests.
    let cookies: SessionCookieJar

    init(cookies: SessionCookieJar) {
        self.cookies = cookies
    }

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
        if let http = response as? HTTPURLResponse { cookies.store(from: http) }
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
        guard let exchange = exchange(for: task), exchange.followsRedirects else { return completionHandler(nil) }
        cookies.store(from: response)
        // The new request copies the old one's fields: cookies the jar added for the old URL
        // give way to those for the new one; a caller's own `Cookie` field goes on as it is.
        completionHandler(exchange.callerSetCookies ? request : cookies.replacingCookies(of: request))
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

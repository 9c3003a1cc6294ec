import HTTPPipeline

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

    static func sharedConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = 64
        return configuration
    }

    let router: SessionRouter
    let session: URLSession

    /// - Parameters:
    ///   - configuration: The session's configuration.
    ///   - cookies: The cookies the transport keeps itself; none by default.
    init(configuration: URLSessionConfiguration, cookies: SessionCookieJar = .off) {
        router = SessionRouter(cookies: cookies)
        // The transport sends cookies itself: URLSession on Linux ignores a request's
        // `httpShouldHandleCookies` and puts every cookie stored for the host in place of the
        // request's own `Cookie` field, unless its configuration says not to. (A copy, so the
        // caller's configuration is left as it was; `copy()` of one is always one.)
        let own = configuration.copy() as? URLSessionConfiguration ?? configuration
        own.httpShouldSetCookies = false
        // Nor does it store them: the transport's jar stores a response's cookies once, bound to
        // its port. FoundationNetworking parses every header line of every response for cookies
        // unless its policy is `.never`: about 29,000 instructions a line, measured with
        // callgrind (a request to nginx, eight fields: 1,076,300 instructions, 787,200 without).
        own.httpCookieAcceptPolicy = .never
        #if canImport(FoundationNetworking)
        // FoundationNetworking looks a data task up in the cache before it makes the task's
        // protocol, and a cancel that lands meanwhile reports its failure once the task may
        // have left the session's registry, which traps the process: `SessionRouter.cancel(_:)`
        // is safe only without a cache.
        own.urlCache = nil
        #endif
        session = URLSession(configuration: own, delegate: router, delegateQueue: router.queue)
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
    /// The session's delegate queue: serial, one operation at a time.
    let queue: SessionDelegateQueue

    init(cookies: SessionCookieJar) {
        self.cookies = cookies
        queue = SessionDelegateQueue()
    }

    /// Cancels `task`: on Linux on the delegate queue, unless the session has reported its end
    /// by then; elsewhere at once.
    ///
    /// Every cancel of the transport goes through here. FoundationNetworking's `cancel()` queues
    /// a report of the task's failure on the session's work queue; if the task has left the
    /// session's registry by the time that report runs, the report traps the process ("Trying to
    /// access a behaviour for a task that in not in the registry"). The session ends a task in
    /// one operation on this serial queue (the delegate's `didCompleteWithError`, the task
    /// marked completed, its removal from the registry queued on the work queue), so a cancel run
    /// here runs either before that operation, its report queued ahead of the removal, or after
    /// it, when the exchange is gone and nothing is cancelled.
    ///
    /// That holds only because the session has no `URLCache` (``SessionOwner``): with one,
    /// `cancel()` defers its report until the task's cache lookup answers, on a background
    /// thread, and the report can still come after the removal (1 trap in 12 runs of
    /// `URLSessionTransportCancelRaceTests` with this queue and the cache; 2 in 11 with neither).
    func cancel(_ task: URLSessionTask) {
        #if canImport(FoundationNetworking)
        queue.addWithoutWaiting { [self] in
            guard exchanges.withLock({ $0[task.taskIdentifier] != nil }) else { return }
            task.cancel()
        }
        #else
        task.cancel()
        #endif
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

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // Credentials are the pipeline's: a server's challenge comes back as the 401 it is.
        // FoundationNetworking asks only once the 401 has been loaded whole, and never ends a
        // task whose challenge it handles by default (the call hung): the challenge is refused,
        // which ends the task as cancelled, and the exchange takes that end as the body's.
        #if canImport(FoundationNetworking)
        exchange(for: task)?.challengedAtEnd()
        completionHandler(.rejectProtectionSpace, nil)
        #else
        completionHandler(.performDefaultHandling, nil)
        #endif
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
        guard let exchange else { return }
        // A head the session never reported (a 3xx it could not follow): its cookies are kept
        // before the caller gets it, as `didReceive(response:)` keeps them.
        let sent = task.countOfBytesSent
        if error == nil, exchange.awaitsHead, let http = task.response as? HTTPURLResponse {
            cookies.store(from: http)
            exchange.complete(nil, lateHead: http, bytesSent: sent)
        } else {
            exchange.complete(URLSessionTransport.typed(error), bytesSent: sent)
        }
    }
}

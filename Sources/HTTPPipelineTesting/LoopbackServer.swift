public import Foundation
import HTTPPipeline

/// A small HTTP/1.1 server on 127.0.0.1 for end-to-end tests through a real URL loading system.
///
/// Register canned responses or closures per method and path, start the server, point your
/// client at ``baseURL``, and inspect what arrived in ``requests``:
///
/// ```swift
/// import Testing
///
/// let server = LoopbackServer()
/// server.route("GET", "/books", .init(headers: [("Content-Type", "application/json")],
///                                     body: Data(#"[{"id":1}]"#.utf8)))
/// try server.start()
/// defer { server.stop() }
///
/// let transport = URLSessionTransport()
/// let response = try await transport.send(HTTPRequest(url: server.baseURL.appending(path: "books")))
/// #expect(server.requests.first?.path == "/books")
/// ```
///
/// What it does:
/// - Listens on 127.0.0.1 only, on an ephemeral port chosen by the system.
/// - Routes by exact method and path; the query is ignored for matching. An unknown route gets
///   `404 Not Found` with an empty body. Routes can be changed at any time; registering the same
///   method and path again replaces the earlier response. A `HEAD` request with no route of its
///   own is answered by the `GET` route of its path, without the body.
/// - Serves each connection on its own thread, so one route's ``Response/delay`` never holds up
///   another connection. Connections are kept alive unless the client asks otherwise. When no
///   thread can be started for a connection (a process or user thread limit was reached), the
///   connection is closed at once, so its client sees a closed connection rather than a hang.
/// - Sends a response body whole with `Content-Length`, or streamed: chunked, dripped a chunk at
///   a time, cut short mid-body, or never-ending (see ``Response/Body``). A streamed body ends
///   when its client goes away or the server stops.
/// - Reads bodies framed by `Content-Length` or `Transfer-Encoding: chunked` (decoded), and
///   answers `100 Continue` to `Expect: 100-continue`.
/// - Answers anything malformed or too large with `400 Bad Request` and closes the connection:
///   a request head is at most 16 KiB with at most 100 header fields, a body at most 8 MiB.
/// - Closes a connection whose client stays silent for ``Timeouts/idle`` (5 seconds by default),
///   takes longer than ``Timeouts/request`` (10 seconds) to send a request however steadily its
///   bytes come, or takes none of a response for the idle timeout. A request cut short is
///   answered with `408 Request Timeout` first. Pass other ``Timeouts`` to ``init(timeouts:)``.
///
/// ``stop()`` shuts down every connection, whatever its client is doing, and waits for every
/// thread it started; it also runs when the server is deinitialised, but call it explicitly: a
/// route closure that captures the server keeps it alive.
///
/// The type does not depend on any test framework, so it works with Swift Testing and XCTest.
public final class LoopbackServer: Sendable {
    /// Why the server could not start.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        private enum Code: Hashable, Sendable {
            case alreadyStarted, alreadyStopped, systemCallFailed
        }

        private let code: Code
        /// The system call that failed, for a failed system call; `nil` otherwise.
        public let call: String?
        /// The error number it reported; `nil` otherwise.
        public let errno: Int32?

        private init(_ code: Code, call: String? = nil, errno: Int32? = nil) {
            self.code = code
            self.call = call
            self.errno = errno
        }

        /// ``LoopbackServer/start()`` was called on a server that is already running.
        public static let alreadyStarted = Error(.alreadyStarted)
        /// ``LoopbackServer/start()`` was called after ``LoopbackServer/stop()``; a stopped
        /// server cannot be restarted. Create a new one.
        public static let alreadyStopped = Error(.alreadyStopped)

        /// A system call setting up the listening socket or starting the accept thread failed.
        ///
        /// - Parameters:
        ///   - call: The call's name.
        ///   - errno: The error number it reported.
        /// - Returns: The error.
        public static func systemCallFailed(call: String, errno: Int32) -> Error {
            Error(.systemCallFailed, call: call, errno: errno)
        }

        /// A one-line explanation of the failure.
        public var description: String {
            switch code {
            case .alreadyStarted: "the loopback server is already running"
            case .alreadyStopped: "the loopback server was stopped and cannot be restarted"
            case .systemCallFailed: "\(call ?? "a system call") failed with errno \(errno ?? 0)"
            }
        }
    }

    /// The threads, sockets and state the server runs on. Its threads retain the core, never the
    /// server, so a server that is no longer referenced still stops in `deinit`.
    let core: Core

    /// Creates a stopped server with no routes.
    ///
    /// - Parameter timeouts: How long a client may stay silent, and take to send a request,
    ///   before the server closes its connection; ``Timeouts/default`` unless you pass others.
    public init(timeouts: Timeouts = .default) {
        core = Core(timeouts: timeouts, threadStarter: .system)
    }

    /// Creates a stopped server with no routes whose threads `threadStarter` starts; tests give
    /// it one that fails.
    package init(timeouts: Timeouts = .default, threadStarter: ThreadStarter) {
        core = Core(timeouts: timeouts, threadStarter: threadStarter)
    }

    deinit {
        core.stop()
    }

    /// Binds 127.0.0.1 on an ephemeral port and starts accepting connections.
    ///
    /// When it returns, ``port`` and ``baseURL`` are valid and connections are accepted.
    ///
    /// - Throws: ``Error/alreadyStarted`` if the server is running, ``Error/alreadyStopped`` if
    ///   it was stopped, or ``Error/systemCallFailed(call:errno:)`` if the socket could not be set
    ///   up or the accept thread could not start; the server can then be started again.
    public func start() throws(Error) {
        try core.start()
    }

    /// The port the server listens on, `0` before ``start()``; it keeps its value after ``stop()``.
    public var port: Int {
        core.state.withLock { $0.port }
    }

    /// The URL of the server's root, `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        // A scheme, an IPv4 literal and a decimal port always make a valid URL.
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Answers every request for `method` and `path` with the same response.
    ///
    /// Registering the same method and path again replaces the earlier route.
    ///
    /// - Parameters:
    ///   - method: The request method, matched exactly (methods are case-sensitive), e.g. `"GET"`.
    ///   - path: The request path without the query, matched exactly, e.g. `"/books"`.
    ///   - response: The response to send.
    public func route(_ method: String, _ path: String, _ response: Response) {
        route(method, path) { _ in response }
    }

    /// Answers every request for `method` and `path` with the response a closure computes.
    ///
    /// The closure runs on the connection's thread, after the request has been added to
    /// ``requests``; ``stop()`` waits for a closure that is running, so keep it quick and never
    /// call ``stop()`` from it. Registering the same method and path again replaces the earlier
    /// route.
    ///
    /// - Parameters:
    ///   - method: The request method, matched exactly (methods are case-sensitive), e.g. `"POST"`.
    ///   - path: The request path without the query, matched exactly, e.g. `"/books"`.
    ///   - respond: Computes the response from the request that arrived.
    public func route(
        _ method: String,
        _ path: String,
        respond: @escaping @Sendable (RecordedRequest) -> Response
    ) {
        core.state.withLock { $0.routes[RouteKey(method: method, path: path)] = respond }
    }

    /// Every complete request received, in arrival order, including those that hit no route.
    ///
    /// Requests rejected as malformed are not recorded.
    public var requests: [RecordedRequest] {
        core.state.withLock { $0.requests }
    }

    /// Drops the requests recorded so far (``requests`` keeps every one, bodies included): for a
    /// soak that reads the process's memory and must not count the server's records.
    package func forgetRequests() {
        core.state.withLock { $0.requests = [] }
    }

    /// How many connections the server has accepted since it started.
    ///
    /// Use it to check connection reuse: two requests sent over one kept-alive connection leave
    /// it at `1`.
    public var connectionsAccepted: Int {
        core.state.withLock { $0.connectionsAccepted }
    }

    /// How many connections are open right now: accepted and not yet closed.
    package var openConnections: Int {
        core.state.withLock { $0.openConnections.count }
    }

    /// Stops accepting, closes every connection and waits for every thread the server started.
    ///
    /// It returns promptly whatever clients are doing: a connection that is silent, half sent,
    /// trickling in or not reading its response is shut down, and a request waiting out its
    /// ``Response/delay`` is abandoned without an answer. Only a route closure that is running
    /// holds it up until the closure returns. Calling it again, or before ``start()``, does
    /// nothing; it returns once the server is fully stopped.
    /// Do not call it from a route closure: it would wait for its own thread.
    public func stop() {
        core.stop()
    }
}

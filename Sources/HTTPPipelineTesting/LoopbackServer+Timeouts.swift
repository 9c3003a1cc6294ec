extension LoopbackServer {
    /// How long a ``LoopbackServer`` lets a client take before it closes the connection.
    ///
    /// Two limits keep a client from holding a connection, and its thread, forever: a silent
    /// client runs into ``idle``, and a client that trickles a request a byte at a time, each
    /// byte in time for ``idle``, runs into ``request``. Start from ``default`` and shorten them
    /// in a test that checks how a client copes with a server that gives up:
    ///
    /// ```swift
    /// let server = LoopbackServer(timeouts: .init(idle: .milliseconds(200), request: .milliseconds(500)))
    /// ```
    public struct Timeouts: Sendable, Equatable {
        /// How long the server waits for the client's next byte, and for the client to take any
        /// byte of a response it is sending, before it closes the connection.
        ///
        /// A connection idle between requests is closed without an answer; a request cut short
        /// gets `408 Request Timeout` first. Zero or less closes a connection with nothing to read.
        public var idle: Duration

        /// The longest a request may take to arrive, from its first byte to its last (head and
        /// body), however steadily its bytes come; then it gets `408 Request Timeout` and the
        /// connection is closed.
        ///
        /// A route's ``Response/delay`` and the time the answer takes to send do not count. Zero
        /// or less answers `408` to a request that does not arrive in one piece.
        public var request: Duration

        /// Creates timeouts.
        ///
        /// - Parameters:
        ///   - idle: How long a connection may stay silent; 5 seconds by default.
        ///   - request: The longest a request may take to arrive; 10 seconds by default.
        public init(idle: Duration = .seconds(5), request: Duration = .seconds(10)) {
            self.idle = idle
            self.request = request
        }

        /// A connection may stay silent for 5 seconds, and a request may take 10 seconds to
        /// arrive: generous for any client on the same machine, short enough that a test which
        /// forgets a connection does not hold the server for long.
        public static let `default` = Timeouts()
    }
}

extension HAR {
    /// One exchange: when it started, how long it took, the request, the response.
    public struct Entry: Codable, Sendable, Equatable {
        /// The page the request belongs to, in a browser's archive.
        public var pageref: String?
        /// When the request started, in ISO 8601 with fractional seconds.
        public var startedDateTime: String
        /// The whole exchange, in milliseconds.
        public var time: Double
        /// The request.
        public var request: Request
        /// The response.
        public var response: Response
        /// What the cache held; empty in a cassette.
        public var cache: Cache
        /// Where the time went, in milliseconds.
        public var timings: Timings
        /// The server's IP address.
        public var serverIPAddress: String?
        /// The connection's identifier.
        public var connection: String?
        /// A comment.
        public var comment: String?

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - startedDateTime: When the request started, in ISO 8601.
        ///   - time: The whole exchange, in milliseconds.
        ///   - request: The request.
        ///   - response: The response.
        ///   - timings: Where the time went.
        public init(startedDateTime: String, time: Double, request: Request, response: Response, timings: Timings) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.cache = Cache()
            self.timings = timings
        }
    }

    /// The state of the cache around a request: nothing in a cassette.
    public struct Cache: Codable, Sendable, Equatable {
        /// A comment.
        public var comment: String?

        /// An empty cache record.
        public init() {}
    }

    /// Where an exchange's time went, in milliseconds; `-1` where not known.
    public struct Timings: Codable, Sendable, Equatable {
        /// Waiting for a connection.
        public var blocked: Double?
        /// Resolving the host name.
        public var dns: Double?
        /// Opening the connection.
        public var connect: Double?
        /// Sending the request.
        public var send: Double
        /// Waiting for the first byte of the response.
        public var wait: Double
        /// Reading the response.
        public var receive: Double
        /// The TLS handshake.
        public var ssl: Double?
        /// A comment.
        public var comment: String?

        /// Creates timings.
        ///
        /// - Parameters:
        ///   - send: Sending the request.
        ///   - wait: Waiting for the response.
        ///   - receive: Reading the response.
        public init(send: Double, wait: Double, receive: Double) {
            self.send = send
            self.wait = wait
            self.receive = receive
        }
    }
}

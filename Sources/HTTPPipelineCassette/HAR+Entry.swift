extension HAR {
    /// One exchange: when it started, how long it took, the request, the response.
    package struct Entry: Codable, Sendable, Equatable {
        /// The page the request belongs to, in a browser's archive.
        package var pageref: String?
        /// When the request started, in ISO 8601 with fractional seconds.
        package var startedDateTime: String
        /// The whole exchange, in milliseconds.
        package var time: Double
        /// The request.
        package var request: Request
        /// The response.
        package var response: Response
        /// What the cache held; empty in a cassette.
        package var cache: Cache
        /// Where the time went, in milliseconds.
        package var timings: Timings
        /// The server's IP address.
        package var serverIPAddress: String?
        /// The connection's identifier.
        package var connection: String?
        /// A comment.
        package var comment: String?

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - startedDateTime: When the request started, in ISO 8601.
        ///   - time: The whole exchange, in milliseconds.
        ///   - request: The request.
        ///   - response: The response.
        ///   - timings: Where the time went.
        package init(startedDateTime: String, time: Double, request: Request, response: Response, timings: Timings) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.cache = Cache()
            self.timings = timings
        }
    }

    /// The state of the cache around a request: nothing in a cassette.
    package struct Cache: Codable, Sendable, Equatable {
        /// A comment.
        package var comment: String?

        /// An empty cache record.
        package init() {}
    }

    /// Where an exchange's time went, in milliseconds; `-1` where not known.
    package struct Timings: Codable, Sendable, Equatable {
        /// Waiting for a connection.
        package var blocked: Double?
        /// Resolving the host name.
        package var dns: Double?
        /// Opening the connection.
        package var connect: Double?
        /// Sending the request.
        package var send: Double
        /// Waiting for the first byte of the response.
        package var wait: Double
        /// Reading the response.
        package var receive: Double
        /// The TLS handshake.
        package var ssl: Double?
        /// A comment.
        package var comment: String?

        /// Creates timings.
        ///
        /// - Parameters:
        ///   - send: Sending the request.
        ///   - wait: Waiting for the response.
        ///   - receive: Reading the response.
        package init(send: Double, wait: Double, receive: Double) {
            self.send = send
            self.wait = wait
            self.receive = receive
        }
    }
}

public import HTTPPipeline

/// One exchange as the logging middleware saw it, already redacted.
///
/// Every string in a record has passed through `Redaction`: a sink may print it as it is.
public struct HTTPLogRecord: Sendable {
    /// How the exchange ended.
    public enum Outcome: Sendable, Equatable {
        /// A response arrived, with this status.
        case response(status: Int)
        /// An error was thrown: `kind` names it (`URLError.timedOut`, `cancelled`, a type name).
        case failure(kind: String)
        /// The head arrived with this status, then the streamed body failed: `kind` names the
        /// error as in ``failure(kind:)``, or is `abandoned` when the body was dropped before its
        /// end.
        case bodyFailed(status: Int, kind: String)
    }

    /// One header as logged: the value is `Redaction.mark` when the name is secret, and is cut
    /// to the middleware's header value limit (ending with `… (N more bytes; limit L)`) when
    /// longer.
    public struct Field: Sendable, Equatable {
        /// The header's name.
        public let name: String
        /// The header's value, or the redaction mark.
        public let value: String

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The header's name.
        ///   - value: The value as logged.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The most bytes of each part a record shows, after redaction: a part that was longer ends
    /// with a note `… (N more bytes; limit L)`.
    public struct Limits: Sendable, Equatable {
        /// The most bytes of the URL shown.
        public let url: Int
        /// The most bytes of each header value, and of the error description, shown.
        public let headerValue: Int
        /// The most bytes of each body shown.
        public let body: Int

        /// Creates a set of limits.
        ///
        /// - Parameters:
        ///   - url: The most bytes of the URL shown.
        ///   - headerValue: The most bytes of each header value and of the error description shown.
        ///   - body: The most bytes of each body shown.
        public init(url: Int, headerValue: Int, body: Int) {
            self.url = url
            self.headerValue = headerValue
            self.body = body
        }
    }

    /// The level the record was made at; what the optional parts below hold depends on it.
    public let level: LogLevel
    /// The request's method.
    public let method: String
    /// The request's URL, with user info, secret query values and secret path segments redacted,
    /// then cut to the middleware's URL limit (ending with `… (N more bytes; limit L)`) when
    /// longer.
    public let url: String
    /// The status, or the kind of error.
    public let outcome: Outcome
    /// The size of the request body in bytes: 0 without a body; for a stream, the bytes the
    /// transport read, or `nil` when it had not finished reading it when the record was written.
    public let requestBytes: Int?
    /// The size of the response body in bytes, or `nil` when an error was thrown.
    public let responseBytes: Int?
    /// How long the rest of the pipeline took, on a monotonic clock.
    public let duration: Duration
    /// The attempt number a retrying layer outside set (`HTTPRequestContext.attempt`), if any.
    public let attempt: Int?
    /// Request headers, at ``LogLevel/headers`` and above; empty otherwise.
    public let requestHeaders: [Field]
    /// Response headers, at ``LogLevel/headers`` and above; empty otherwise.
    public let responseHeaders: [Field]
    /// The thrown error's description, redacted and cut to the header value limit, at
    /// ``LogLevel/headers`` and above.
    public let errorDescription: String?
    /// The request body, redacted and truncated, at ``LogLevel/body``.
    public let requestBody: String?
    /// The response body, redacted and truncated, at ``LogLevel/body``.
    public let responseBody: String?
    /// The limits the URL, header values, error description and bodies were cut to.
    public let limits: Limits
    /// Where the attempt's time went, as the transport told (`HTTPResponse.transferMetrics`):
    /// at every level, final when the record is made (a streamed response is recorded when its
    /// body ends); `nil` when the transport tells nothing or no response came.
    public let transferMetrics: HTTPTransferMetrics?
}

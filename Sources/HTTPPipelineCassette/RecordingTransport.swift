public import HTTPPipeline

/// A transport that sends through another and records every exchange into a ``Cassette``,
/// redacted.
///
/// Put it at the bottom of a pipeline, over the real transport, so that every attempt and every
/// redirect hop is an entry of its own, as the server saw it:
///
/// ```swift
/// import HTTPPipelineStandard
///
/// let cassette = Cassette()
/// let client = try StandardPipeline.build(over: RecordingTransport(over: URLSessionTransport(), into: cassette))
/// _ = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/books")!))
/// try cassette.write(to: URL(fileURLWithPath: "Cassettes/books.har"))
/// ```
///
/// What passes through is never changed: a streamed body stays a stream, read by its reader as the
/// transport gives it, while the recording keeps a copy of its first `bodyLimit` bytes (16 MiB by
/// default) and the sizes of its chunks. An entry is written once its exchange is whole: at once
/// for a buffered response, when a streamed body ends, fails or is dropped for a stream. A body
/// past the limit is recorded as a summary of its size. A request that fails in the transport
/// below is recorded as a failed entry (status 0, the error's kind and words, redacted) and the
/// error rethrown.
public struct RecordingTransport<Base: HTTPTransport>: HTTPTransport {
    /// The cassette the exchanges go into.
    public let cassette: Cassette
    let base: Base
    let bodyLimit: Int

    /// Creates a recording transport.
    ///
    /// - Parameters:
    ///   - base: The transport that sends the requests.
    ///   - cassette: Where the exchanges are recorded.
    ///   - bodyLimit: The most bytes of a request or response body; 16 MiB by default.
    public init(over base: Base, into cassette: Cassette, bodyLimit: Int = 16 << 20) {
        self.base = base
        self.cassette = cassette
        self.bodyLimit = bodyLimit
    }

    /// Sends the request through the base transport and records the exchange.
    ///
    /// - Parameter request: The request.
    /// - Returns: The base transport's response, its body as the transport gave it.
    /// - Throws: What the base transport threw.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await cassette.exchangeRecording(request, over: base, bodyLimit: bodyLimit)
    }
}

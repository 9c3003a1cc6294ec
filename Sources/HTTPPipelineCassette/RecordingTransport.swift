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
/// Bodies are collected up to a limit (16 MiB by default): a streamed response body is read
/// whole and handed on as a buffered one, unchanged; a body past the limit throws
/// ``CassetteError/bodyTooLarge(limit:)`` and records nothing. A request that fails in the
/// transport below records nothing either.
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
    /// - Returns: The base transport's response, its body buffered.
    /// - Throws: ``CassetteError/bodyTooLarge(limit:)`` for a body past the limit, or what the
    ///   base transport threw.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await cassette.exchangeRecording(request, over: base, bodyLimit: bodyLimit).0
    }
}

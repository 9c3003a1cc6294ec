public import Foundation
import HTTPPipeline

extension APIClient {
    /// Sends an endpoint's request and returns its body's lines as they arrive
    /// (newline-delimited JSON, logs, line protocols).
    ///
    /// ```swift
    /// for try await line in try await client.lines(Endpoint<EmptyResponse>.get("/logs/tail")) {
    ///     print(line)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint; its `Response` type is not used.
    ///   - maximumLineLength: The most bytes of one line; 1 MiB by default.
    /// - Returns: The lines, read once, as they arrive.
    /// - Throws: As ``send(_:)`` does up to the status; reading the lines throws
    ///   ``APIError/streamLineTooLong(limit:)``, ``APIError/transport(underlying:)`` or
    ///   `CancellationError`.
    public func lines<Response>(_ endpoint: Endpoint<Response>, maximumLineLength: Int = 1 << 20) async throws
        -> TextLines
    {
        let response = try await acceptedResponse(for: endpoint)
        return TextLines(body: response.body, maximumLineLength: max(maximumLineLength, 1))
    }

    /// Sends an endpoint's request with `Accept: text/event-stream` (unless the endpoint sets
    /// `Accept`) and returns the server-sent events of its body as they arrive.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint; its `Response` type is not used.
    ///   - maximumLineLength: The most bytes of one line of the stream; 1 MiB by default.
    /// - Returns: The events, read once, as they arrive.
    /// - Throws: As ``lines(_:maximumLineLength:)`` does.
    public func events<Response>(_ endpoint: Endpoint<Response>, maximumLineLength: Int = 1 << 20) async throws
        -> ServerSentEvents
    {
        let response = try await acceptedResponse(for: endpoint, accept: "text/event-stream")
        return ServerSentEvents(lines: TextLines(body: response.body, maximumLineLength: max(maximumLineLength, 1)))
    }

    /// Sends an endpoint's request and decodes each server-sent event's data as the endpoint's
    /// `Response` type, as events arrive: an LLM's token stream, a live feed of typed updates.
    ///
    /// ```swift
    /// struct Delta: Decodable, Sendable { let text: String }
    /// let completion = Endpoint<Delta>.post("/v1/complete", body: ["prompt": "Write a haiku"])
    /// for try await delta in try await client.decodedEvents(completion, endingAt: "[DONE]") {
    ///     print(delta.text, terminator: "")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint; every event's data decodes as its `Response` type.
    ///   - terminator: An event data that ends the stream instead of being decoded (OpenAI-style
    ///     APIs send `[DONE]`); none by default.
    ///   - maximumLineLength: The most bytes of one line of the stream; 1 MiB by default.
    /// - Returns: The decoded values, read once, as they arrive.
    /// - Throws: As ``events(_:maximumLineLength:)`` does; a value that does not decode throws
    ///   ``APIError/decoding(type:codingPath:reason:)`` when it is read.
    public func decodedEvents<Response>(
        _ endpoint: Endpoint<Response>,
        endingAt terminator: String? = nil,
        maximumLineLength: Int = 1 << 20
    ) async throws -> DecodedEvents<Response> {
        let events = try await events(endpoint, maximumLineLength: maximumLineLength)
        return DecodedEvents(events: events, terminator: terminator, client: self)
    }

    /// Sends an endpoint's request and writes its body to a file as it arrives: into a temporary
    /// file beside `destination`, moved into place when complete; on failure or cancellation the
    /// partial file is removed and `destination` is left as it was.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint; its `Response` type is not used.
    ///   - destination: A file URL.
    ///   - limit: The most bytes to write; `nil` (the default) for no limit.
    /// - Returns: The number of bytes written.
    /// - Throws: As ``send(_:)`` does up to the status; then ``APIError/responseTooLarge(limit:)``,
    ///   ``APIError/transport(underlying:)`` (a failed read or file write), or
    ///   `CancellationError`.
    @discardableResult
    public func download<Response>(_ endpoint: Endpoint<Response>, to destination: URL, limit: Int? = nil)
        async throws -> Int
    {
        let response = try await acceptedResponse(for: endpoint)
        return try await Self.transported {
            do {
                return try await response.body.write(to: destination, limit: limit)
            } catch let error as HTTPBodyError where error.isTooLarge {
                throw APIError.responseTooLarge(limit: error.limit ?? 0)
            }
        }
    }
}

/// Server-sent events whose data decode as `Value`: see
/// ``APIClient/decodedEvents(_:endingAt:maximumLineLength:)``.
public struct DecodedEvents<Value: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    let events: ServerSentEvents
    let terminator: String?
    let client: APIClient

    /// Starts reading the body.
    public func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator(), terminator: terminator, client: client)
    }

    /// Reads decoded values.
    public struct Iterator: AsyncIteratorProtocol {
        var events: ServerSentEvents.Iterator
        let terminator: String?
        let client: APIClient
        var ended = false

        /// The next value, or `nil` at the end of the body or at the terminator.
        public mutating func next() async throws -> Value? {
            guard !ended, let event = try await events.next() else { return nil }
            if let terminator, event.data == terminator {
                ended = true
                return nil
            }
            return try client.decode(Value.self, from: Data(event.data.utf8))
        }
    }
}

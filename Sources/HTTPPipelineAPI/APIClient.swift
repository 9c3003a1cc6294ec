public import Foundation
public import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends typed ``Endpoint`` values over any `HTTPTransport` and decodes the replies.
///
/// The client is the API layer: it builds the request (path joining, percent-encoding, JSON
/// bodies), checks the status and decodes the body. Cross-cutting behaviour (auth, retry,
/// logging, gzip) belongs to the pipeline passed in as `transport`, which the client never looks
/// inside.
///
/// ```swift
/// let client = APIClient(baseURL: apiRoot, transport: pipeline)   // e.g. https://api.example.com/v2/
/// let book = try await client.send(Endpoint<Book>.get("/books/\(id)"))
/// ```
public struct APIClient: Sendable {
    /// The URL every endpoint path is joined to; its path is a prefix.
    public let baseURL: URL
    /// What sends the requests: a transport or a whole pipeline.
    public let transport: any HTTPTransport
    /// Decodes response bodies.
    public let decoder: JSONDecoder
    /// Encodes JSON request bodies that do not bring their own encoder.
    public let encoder: JSONEncoder
    /// The statuses whose bodies are decoded; any other fails with
    /// ``APIError/unacceptableStatus(code:bodySnippet:)``.
    public let acceptableStatus: Range<Int>
    /// The most bytes of a response body the client reads before it fails with
    /// ``APIError/responseTooLarge(limit:)``: the body is decoded in memory, so a server that
    /// sends without end must not be able to fill it.
    public let responseBodyLimit: Int

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: An absolute `http` or `https` URL, optionally with a path prefix such as
    ///     `/v2/`; a trailing slash makes no difference.
    ///   - transport: What sends the requests.
    ///   - decoder: Decodes response bodies; a plain `JSONDecoder` by default.
    ///   - encoder: Encodes JSON request bodies; a plain `JSONEncoder` by default.
    ///   - acceptableStatus: The statuses whose bodies are decoded; `200..<300` by default.
    ///   - responseBodyLimit: The most bytes of a response body read; 32 MiB by default.
    public init(
        baseURL: URL,
        transport: any HTTPTransport,
        decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = JSONEncoder(),
        acceptableStatus: Range<Int> = 200..<300,
        responseBodyLimit: Int = 32 << 20
    ) {
        self.responseBodyLimit = max(responseBodyLimit, 0)
        self.baseURL = baseURL
        self.transport = transport
        self.decoder = decoder
        self.encoder = encoder
        self.acceptableStatus = acceptableStatus
    }

    /// Builds the request `endpoint` describes against ``baseURL``, without sending it.
    ///
    /// - Parameter endpoint: The endpoint.
    /// - Returns: The request the client would send.
    /// - Throws: ``APIError/invalidRequest(reason:)`` when the request cannot be built.
    public func request<Response>(for endpoint: Endpoint<Response>) throws(APIError) -> HTTPRequest {
        try endpoint.request(baseURL: baseURL, encoder: encoder)
    }

    /// Sends an endpoint's request, checks the status and decodes the body.
    ///
    /// An endpoint whose `Response` is ``EmptyResponse`` accepts any body, empty or not. Any other
    /// type needs a body: an empty one fails with ``APIError/decoding(type:codingPath:reason:)``.
    ///
    /// The error type is not typed (`throws(APIError)`) on purpose: cancellation must reach the
    /// caller as `CancellationError`, the same as everywhere else in Swift concurrency, and not
    /// hidden inside an API error.
    ///
    /// - Parameter endpoint: The endpoint to send.
    /// - Returns: The decoded response.
    /// - Throws: `CancellationError` when the calling task is cancelled (before or while
    ///   sending); otherwise only ``APIError``: ``APIError/invalidRequest(reason:)`` before
    ///   anything is sent, ``APIError/transport(underlying:)``,
    ///   ``APIError/unacceptableStatus(code:bodySnippet:)``,
    ///   ``APIError/responseTooLarge(limit:)`` or ``APIError/decoding(type:codingPath:reason:)``.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws -> Response {
        let response = try await acceptedResponse(for: endpoint)
        let limit = responseBodyLimit
        let data = try await Self.transported {
            do {
                return try await response.body.collect(upTo: limit)
            } catch let error as HTTPBodyError where error.isTooLarge {
                throw APIError.responseTooLarge(limit: limit)
            }
        }
        return try decode(Response.self, from: data)
    }

    /// Sends an endpoint's request and checks the status, leaving the body unread.
    ///
    /// - Throws: As ``send(_:)`` does, before the body.
    func acceptedResponse<Response>(
        for endpoint: Endpoint<Response>,
        accept: String? = nil
    ) async throws -> HTTPResponse {
        var request = try self.request(for: endpoint)
        if let accept, request.fields["Accept"] == nil { request.fields["Accept"] = accept }
        try Task.checkCancellation()
        let response = try await Self.transported { [request] in try await transport.send(request) }
        guard acceptableStatus.contains(response.status.code) else {
            // Only the snippet's bytes are read: an error page never costs more than that.
            let start = try await Self.transported {
                try await Self.prefix(of: response.body, count: APIError.bodySnippetLimit + 1)
            }
            throw APIError.unacceptableStatus(code: response.status.code, bodySnippet: APIError.snippet(of: start))
        }
        return response
    }

    /// Runs a step that talks to the transport (sending, or reading the body), with its errors as
    /// the client reports them: cancellation as `CancellationError`, anything else as
    /// ``APIError/transport(underlying:)``.
    static func transported<Value>(_ step: () async throws -> Value) async throws -> Value {
        do {
            return try await step()
        } catch let error as CancellationError {
            throw error
        } catch let error as APIError {
            throw error
        } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
            throw CancellationError()
        } catch {
            throw APIError.transport(underlying: error)
        }
    }

    /// The first `count` bytes of a body (fewer when it is shorter), reading no further.
    static func prefix(of body: HTTPBody, count: Int) async throws -> Data {
        if let data = body.bufferedData { return data.prefix(count) }
        var start = Data()
        for try await chunk in body {
            start.append(chunk.prefix(count - start.count))
            if start.count >= count { break }
        }
        return start
    }

    func decode<Response: Decodable>(_ type: Response.Type, from data: Data) throws(APIError) -> Response {
        if let empty = EmptyResponse() as? Response {
            return empty
        }
        let typeName = String(describing: type)
        guard !data.isEmpty else {
            throw .decoding(type: typeName, codingPath: "<root>", reason: "the response body is empty")
        }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            let (path, reason) = Self.explain(error)
            throw .decoding(type: typeName, codingPath: path, reason: reason)
        } catch {
            throw .decoding(type: typeName, codingPath: "<root>", reason: "\(Swift.type(of: error))")
        }
    }

    private static func explain(_ error: DecodingError) -> (path: String, reason: String) {
        switch error {
        case .typeMismatch(let expected, let context):
            (CodingPath.describe(context.codingPath), "expected \(expected): \(context.debugDescription)")
        case .valueNotFound(let expected, let context):
            (CodingPath.describe(context.codingPath), "expected \(expected) but found null")
        case .keyNotFound(let key, let context):
            (CodingPath.describe(context.codingPath + [key]), "the key is missing")
        case .dataCorrupted(let context):
            (CodingPath.describe(context.codingPath), context.debugDescription)
        @unknown default:
            ("<root>", "the body could not be decoded")
        }
    }
}

public import Foundation
public import HTTPPipeline

#if canImport(FoundationNetworking)
public import FoundationNetworking
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

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: An absolute `http` or `https` URL, optionally with a path prefix such as
    ///     `/v2/`; a trailing slash makes no difference.
    ///   - transport: What sends the requests.
    ///   - decoder: Decodes response bodies; a plain `JSONDecoder` by default.
    ///   - encoder: Encodes JSON request bodies; a plain `JSONEncoder` by default.
    ///   - acceptableStatus: The statuses whose bodies are decoded; `200..<300` by default.
    public init(
        baseURL: URL,
        transport: any HTTPTransport,
        decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = JSONEncoder(),
        acceptableStatus: Range<Int> = 200..<300
    ) {
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
    public func request<Response>(for endpoint: Endpoint<Response>) throws(APIError) -> URLRequest {
        try endpoint.urlRequest(baseURL: baseURL, encoder: encoder)
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
    ///   ``APIError/unacceptableStatus(code:bodySnippet:)`` or
    ///   ``APIError/decoding(type:codingPath:reason:)``.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws -> Response {
        let request = try self.request(for: endpoint)
        try Task.checkCancellation()
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch let error as CancellationError {
            throw error
        } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
            throw CancellationError()
        } catch {
            throw APIError.transport(underlying: error)
        }
        guard acceptableStatus.contains(response.statusCode) else {
            throw APIError.unacceptableStatus(code: response.statusCode, bodySnippet: APIError.snippet(of: data))
        }
        return try decode(Response.self, from: data)
    }

    private func decode<Response: Decodable>(_ type: Response.Type, from data: Data) throws(APIError) -> Response {
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

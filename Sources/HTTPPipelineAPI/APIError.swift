import Foundation
import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why an ``APIClient`` could not turn an ``Endpoint`` into a value, naming the stage that failed.
///
/// A struct with a private code, so that a stage added later breaks nobody's `switch`: ask
/// ``statusCode`` (`error.statusCode == 404`), ``isTransport`` and the other `is…` properties,
/// and read what the stage carries.
///
/// ```swift
/// func userFacing(_ error: APIError) -> String {
///     if error.statusCode == 404 { return "not found" }
///     if error.isTransport || [429, 503].contains(error.statusCode) { return "try again later" }
///     return "something went wrong"
/// }
/// ```
///
/// Descriptions are safe to log: they never contain the request URL or its query, a header or the
/// request body. An underlying transport error is described in words by `ErrorWords`: a
/// `URLError`'s name, number and host (never the path or query, which errors such as `URLError`
/// carry in their own descriptions). The only server-supplied text is the body
/// snippet of ``unacceptableStatus(code:bodySnippet:)``, capped at ``bodySnippetLimit`` bytes.
public struct APIError: Error, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case invalidRequest, transport, unacceptableStatus, decoding, responseTooLarge, streamLineTooLong
    }

    private let code: Code
    /// Why the request could not be built, or why the body did not decode; `nil` otherwise.
    public let reason: String?
    /// What the transport threw, for a transport failure; `nil` otherwise.
    public let underlying: (any Error)?
    /// The status the client did not accept; `nil` for any other stage.
    public let statusCode: Int?
    /// The start of the unaccepted response's body (at most ``bodySnippetLimit`` bytes, decoded
    /// as UTF-8 lossily); `nil` for any other stage.
    public let bodySnippet: String?
    /// The type a body did not decode into; `nil` otherwise.
    public let type: String?
    /// Where decoding failed, for example `books[3].author.name`, or `<root>`; `nil` otherwise.
    public let codingPath: String?
    /// The limit a body or a streamed line was longer than; `nil` otherwise.
    public let limit: Int?

    private init(
        _ code: Code, reason: String? = nil, underlying: (any Error)? = nil, statusCode: Int? = nil,
        bodySnippet: String? = nil, type: String? = nil, codingPath: String? = nil, limit: Int? = nil
    ) {
        self.code = code
        self.reason = reason
        self.underlying = underlying
        self.statusCode = statusCode
        self.bodySnippet = bodySnippet
        self.type = type
        self.codingPath = codingPath
        self.limit = limit
    }

    /// The request could not be built: a rejected path, a base URL that is not absolute, or a body
    /// that could not be encoded. Nothing was sent.
    ///
    /// - Parameter reason: What was wrong.
    /// - Returns: The error.
    public static func invalidRequest(reason: String) -> APIError { APIError(.invalidRequest, reason: reason) }

    /// The transport failed before a response arrived.
    ///
    /// - Parameter underlying: What it threw.
    /// - Returns: The error.
    public static func transport(underlying: any Error) -> APIError { APIError(.transport, underlying: underlying) }

    /// The server answered with a status the client does not accept.
    ///
    /// - Parameters:
    ///   - code: The status code.
    ///   - bodySnippet: The start of the response body.
    /// - Returns: The error.
    public static func unacceptableStatus(code: Int, bodySnippet: String) -> APIError {
        APIError(.unacceptableStatus, statusCode: code, bodySnippet: bodySnippet)
    }

    /// The response body did not decode into `type`; `codingPath` locates the failure and `reason`
    /// explains it, including an empty body where a value was expected.
    ///
    /// - Parameters:
    ///   - type: The type's name.
    ///   - codingPath: Where, for example `books[3].author.name`, or `<root>`.
    ///   - reason: Why.
    /// - Returns: The error.
    public static func decoding(type: String, codingPath: String, reason: String) -> APIError {
        APIError(.decoding, reason: reason, type: type, codingPath: codingPath)
    }

    /// The response body was longer than the client's ``APIClient/responseBodyLimit``: reading
    /// stopped there and nothing past it was kept.
    ///
    /// - Parameter limit: The limit.
    /// - Returns: The error.
    public static func responseTooLarge(limit: Int) -> APIError { APIError(.responseTooLarge, limit: limit) }

    /// A line of a streamed body (``APIClient/lines(_:maximumLineLength:)``,
    /// ``APIClient/events(_:maximumLineLength:)``), or one server-sent event's data, was longer
    /// than the limit: reading stopped, after every line before it.
    ///
    /// - Parameter limit: The limit.
    /// - Returns: The error.
    public static func streamLineTooLong(limit: Int) -> APIError { APIError(.streamLineTooLong, limit: limit) }

    /// Whether the request could not be built (nothing was sent).
    public var isInvalidRequest: Bool { code == .invalidRequest }
    /// Whether the transport failed before a response arrived.
    public var isTransport: Bool { code == .transport }
    /// Whether the server answered with a status the client does not accept (``statusCode``).
    public var isUnacceptableStatus: Bool { code == .unacceptableStatus }
    /// Whether the response body did not decode.
    public var isDecoding: Bool { code == .decoding }
    /// Whether the response body was longer than the client's limit.
    public var isResponseTooLarge: Bool { code == .responseTooLarge }
    /// Whether a line of a streamed body was longer than its limit.
    public var isStreamLineTooLong: Bool { code == .streamLineTooLong }

    /// The most bytes of a response body kept in ``unacceptableStatus(code:bodySnippet:)``.
    public static let bodySnippetLimit = 512

    /// A one-line explanation naming the failing stage, without any request secret.
    public var description: String {
        switch code {
        case .invalidRequest:
            "invalid request: \(reason ?? "")"
        case .transport:
            "transport failure: \(underlying.map(ErrorWords.describe) ?? "")"
        case .unacceptableStatus:
            bodySnippet?.isEmpty != false
                ? "unacceptable status \(statusCode ?? 0) with an empty body"
                : "unacceptable status \(statusCode ?? 0); body starts: \(bodySnippet ?? "")"
        case .decoding:
            "could not decode \(type ?? "") at \(codingPath ?? ""): \(reason ?? "")"
        case .responseTooLarge:
            "the response body is longer than the limit of \(limit ?? 0) bytes"
        case .streamLineTooLong:
            "a line of the streamed body is longer than the limit of \(limit ?? 0) bytes"
        }
    }

    /// The start of a response body for ``unacceptableStatus(code:bodySnippet:)``.
    static func snippet(of body: Data) -> String {
        let prefix = body.prefix(bodySnippetLimit)
        let text = String(decoding: prefix, as: UTF8.self)
        return body.count > bodySnippetLimit ? text + "…" : text
    }

}

import Foundation
import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why an ``APIClient`` could not turn an ``Endpoint`` into a value; each case names the stage
/// that failed.
///
/// Descriptions are safe to log: they never contain the request URL or its query, a header or the
/// request body. An underlying transport error is described in words by `ErrorWords`: a
/// `URLError`'s name, number and host (never the path or query, which errors such as `URLError`
/// carry in their own descriptions). The only server-supplied text is the body
/// snippet of ``unacceptableStatus(code:bodySnippet:)``, capped at ``bodySnippetLimit`` bytes.
public enum APIError: Error, CustomStringConvertible {
    /// The request could not be built: a rejected path, a base URL that is not absolute, or a body
    /// that could not be encoded. Nothing was sent.
    case invalidRequest(reason: String)
    /// The transport failed before a response arrived; `underlying` is what it threw.
    case transport(underlying: any Error)
    /// The server answered with a status the client does not accept; `bodySnippet` is the start of
    /// the response body (at most ``bodySnippetLimit`` bytes, decoded as UTF-8 lossily).
    case unacceptableStatus(code: Int, bodySnippet: String)
    /// The response body did not decode into `type`; `codingPath` locates the failure (for example
    /// `books[3].author.name`, or `<root>`) and `reason` explains it, including an empty body where
    /// a value was expected.
    case decoding(type: String, codingPath: String, reason: String)
    /// The response body was longer than the client's ``APIClient/responseBodyLimit``: reading
    /// stopped there and nothing past it was kept.
    case responseTooLarge(limit: Int)
    /// A line of a streamed body (``APIClient/lines(_:maximumLineLength:)``,
    /// ``APIClient/events(_:maximumLineLength:)``), or one server-sent event's data, was longer
    /// than the limit: reading stopped, after every line before it.
    case streamLineTooLong(limit: Int)

    /// The most bytes of a response body kept in ``unacceptableStatus(code:bodySnippet:)``.
    public static let bodySnippetLimit = 512

    /// A one-line explanation naming the failing stage, without any request secret.
    public var description: String {
        switch self {
        case .invalidRequest(let reason):
            "invalid request: \(reason)"
        case .transport(let underlying):
            "transport failure: \(ErrorWords.describe(underlying))"
        case .unacceptableStatus(let code, let snippet):
            snippet.isEmpty
                ? "unacceptable status \(code) with an empty body"
                : "unacceptable status \(code); body starts: \(snippet)"
        case .decoding(let type, let codingPath, let reason):
            "could not decode \(type) at \(codingPath): \(reason)"
        case .responseTooLarge(let limit):
            "the response body is longer than the limit of \(limit) bytes"
        case .streamLineTooLong(let limit):
            "a line of the streamed body is longer than the limit of \(limit) bytes"
        }
    }

    /// The start of a response body for ``unacceptableStatus(code:bodySnippet:)``.
    static func snippet(of body: Data) -> String {
        let prefix = body.prefix(bodySnippetLimit)
        let text = String(decoding: prefix, as: UTF8.self)
        return body.count > bodySnippetLimit ? text + "…" : text
    }

}

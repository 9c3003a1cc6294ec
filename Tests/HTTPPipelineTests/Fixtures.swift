import Foundation
import HTTPPipeline
import HTTPPipelineTesting

/// A middleware that appends its tag to the `X-Trail` request header and to the response body,
/// so a test sees which layers touched each direction, in which order.
struct Trail: HTTPMiddleware {
    let tag: String
    var name: String { "Trail(\(tag))" }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        request.fields["X-Trail"] = request.fields["X-Trail"].map { $0 + "," + tag } ?? tag
        var response = try await next(request)
        response.body = HTTPBody(try await response.bytes() + Data("<\(tag)".utf8))
        return response
    }
}

/// Answers without calling `next`.
struct ShortCircuit: HTTPMiddleware {
    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        HTTPResponse(status: 204)
    }
}

/// Calls `next` twice and returns the second response.
struct CallsTwice: HTTPMiddleware {
    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        _ = try await next(request)
        return try await next(request)
    }
}

let testURL = URL(fileURLWithPath: "/")

func request(_ path: String = "/resource", method: HTTPMethod = .get) -> HTTPRequest {
    var components = URLComponents()
    components.scheme = "http"
    components.host = "example.invalid"
    components.path = path
    return HTTPRequest(method: method, url: components.url ?? testURL)
}

extension Data {
    var text: String { String(decoding: self, as: UTF8.self) }
}

extension HTTPResponse {
    /// The whole body, read with a limit far above anything a test sends.
    func bytes() async throws -> Data {
        try await body.collect(upTo: 1 << 24)
    }
}

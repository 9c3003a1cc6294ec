import Foundation
import HTTPPipeline
import HTTPPipelineTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A middleware that appends its tag to the `X-Trail` request header and to the response body,
/// so a test sees which layers touched each direction, in which order.
struct Trail: HTTPMiddleware {
    let tag: String
    var name: String { "Trail(\(tag))" }

    func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
        var request = request
        let trail = request.value(forHTTPHeaderField: "X-Trail").map { $0 + "," + tag } ?? tag
        request.setValue(trail, forHTTPHeaderField: "X-Trail")
        let (data, response) = try await next(request)
        return (data + Data("<\(tag)".utf8), response)
    }
}

/// Answers without calling `next`.
struct ShortCircuit: HTTPMiddleware {
    func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
        let response = HTTPURLResponse(
            url: request.url ?? testURL, statusCode: 204, httpVersion: nil, headerFields: nil)
        guard let response else { throw HTTPTransportError.nonHTTPResponse }
        return (Data(), response)
    }
}

/// Calls `next` twice and returns the second response.
struct CallsTwice: HTTPMiddleware {
    func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
        _ = try await next(request)
        return try await next(request)
    }
}

let testURL = URL(fileURLWithPath: "/")

func request(_ path: String = "/resource", method: String = "GET") -> URLRequest {
    var components = URLComponents()
    components.scheme = "http"
    components.host = "example.invalid"
    components.path = path
    var request = URLRequest(url: components.url ?? testURL)
    request.httpMethod = method
    return request
}

extension Data {
    var text: String { String(decoding: self, as: UTF8.self) }
}

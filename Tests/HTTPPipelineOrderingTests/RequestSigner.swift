import Foundation
import HTTPPipeline

/// Signs each request over its method, URL and credential, as an HMAC signer would (a keyed
/// FNV-1a hash stands in for the HMAC), and says it belongs inside auth.
struct RequestSigner: HTTPMiddleware, PlacementDeclaring {
    static let key = "fixed-test-key"

    var roles: Set<MiddlewareRole> { ["signing", .changesRequest] }
    var placementExpectations: [PlacementExpectation] {
        [.inside(.auth, because: "the signature covers the credential")]
    }

    /// The signature of a request with these parts.
    static func signature(method: String, url: String, authorization: String?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(key)\n\(method)\n\(url)\n\(authorization ?? "")".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// Whether a request as sent carries the signature of what it carries.
    static func isSigned(_ request: HTTPRequest) -> Bool {
        request.fields["X-Signature"]
            == signature(
                method: request.method.rawValue, url: request.url.absoluteString,
                authorization: request.fields["Authorization"])
    }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        request.fields["X-Signature"] = Self.signature(
            method: request.method.rawValue, url: request.url.absoluteString,
            authorization: request.fields["Authorization"])
        return try await next(request)
    }
}

/// Records the requests and responses that pass it, unchanged, under a name of its own.
struct Spy: HTTPMiddleware {
    let name: String
    let seen = Locked<[(request: HTTPRequest, response: HTTPResponse?)]>([])

    init(_ name: String) {
        self.name = name
    }

    var requests: [HTTPRequest] { seen.withLock { $0.map(\.request) } }
    var responses: [HTTPResponse] { seen.withLock { $0.compactMap(\.response) } }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let response = try await next(request)
        seen.withLock { $0.append((request, response)) }
        return response
    }
}

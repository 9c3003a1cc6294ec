import Foundation
import HTTPPipelineAPI
import Testing

struct Author: Codable, Sendable, Equatable {
    var name: String
}

struct Book: Codable, Sendable, Equatable {
    var title: String
    var author: Author
}

struct Library: Codable, Sendable, Equatable {
    var books: [Book]
}

struct Order: Codable, Sendable, Equatable {
    var item: String
    var unitPrice: Int
}

/// Runs `body` and returns the reason of the `APIError.invalidRequest` it threw, or records an issue.
func invalidRequestReason(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(APIError) -> Void
) -> String? {
    do {
        try body()
        Issue.record("expected APIError.invalidRequest, nothing was thrown", sourceLocation: sourceLocation)
    } catch  where error.isInvalidRequest {
        return error.reason
    } catch {
        Issue.record("expected APIError.invalidRequest, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Builds a URL from a literal the test controls, recording an issue if it is malformed.
func url(_ string: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try #require(URL(string: string), sourceLocation: sourceLocation)
}

import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineRetry
import Testing

/// The curl transport's errors as the retry plugin judges them.
@Suite("CurlTransport errors under retry")
struct CurlRetryClassificationTests {
    @Test func retrysDefaultPolicyRetriesTheTransientCategoriesAndNotTLS() throws {
        let policy = RetryPolicy.default
        let request = HTTPRequest(url: try #require(URL(string: "http://example.com/")))
        for (code, transient) in [(28, true), (7, true), (6, true), (56, true), (18, true), (60, false), (3, false)] {
            let error = CurlTransportError(code: code, message: "")
            #expect(policy.shouldRetry(.failure(error), for: request) == transient, "CURLcode \(code)")
        }
    }
}

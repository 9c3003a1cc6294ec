import Foundation
import HTTPPipeline

extension TimeoutMiddleware {
    /// Sends `request` within `deadline` (`remaining` left of it now), then bounds every chunk of
    /// a streamed response body by it too.
    func withinDeadline(
        _ request: HTTPRequest, deadline: HTTPDeadline, remaining: Duration, next: HTTPNext
    ) async throws -> HTTPResponse {
        let expired = HTTPTimeoutError(.total, after: deadline.limit)
        var response = try await timeline.race(within: remaining, orThrow: expired) {
            try await next(request)
        }
        if response.body.bufferedData == nil {
            let bound = DeadlineBoundChunks(
                body: response.body, deadline: deadline, timeline: timeline, error: expired)
            // A replayable body stays replayable: every read makes a fresh bound reader.
            response.body = HTTPBody(wrapping: response.body) { bound }
        }
        return response
    }
}

import Foundation
import HTTPPipeline
import HTTPPipelineRetry
import HTTPPipelineTesting
import Testing

/// The attempt number travels with the request (`context.attempt`), not with the task: layers
/// inside the retry see it, and a request made anew inside an attempt does not inherit it.
@Suite struct RetryAttemptNumberTests {
    /// Records the attempt number of every request it sees.
    struct AttemptRecorder: HTTPMiddleware {
        let seen: Locked<[Int?]>
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            seen.withLock { $0.append(request.context.attempt) }
            return try await next(request)
        }
    }

    /// Inside each attempt, sends a request of its own through another pipeline first, as a
    /// token refresh does.
    struct SideCall: HTTPMiddleware {
        let other: any HTTPTransport
        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            _ = try await other.send(HTTPRequest(url: request.url.appendingPathComponent("side")))
            return try await next(request)
        }
    }

    @Test func layersInsideTheRetrySeeEachAttemptsNumber() async throws {
        let seen = Locked<[Int?]>([])
        let pipeline = Pipeline(transport: ScriptedTransport([.status(503), .status(503), .ok()])) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
            AttemptRecorder(seen: seen)
        }
        _ = try await pipeline.send(request())
        #expect(seen.withLock { $0 } == [1, 2, 3])
    }

    @Test func aRequestMadeAnewInsideAnAttemptCarriesNoAttemptNumber() async throws {
        let innerSeen = Locked<[Int?]>([])
        let other = Pipeline(transport: ScriptedTransport(respond: { _ in .ok() })) {
            AttemptRecorder(seen: innerSeen)
        }
        let pipeline = Pipeline(transport: ScriptedTransport([.status(503), .ok()])) {
            RetryMiddleware(policy: immediatePolicy(), clock: ManualClock())
            SideCall(other: other)
        }
        _ = try await pipeline.send(request())
        #expect(innerSeen.withLock { $0 } == [nil, nil])
    }
}

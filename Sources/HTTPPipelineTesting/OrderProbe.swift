import Foundation
public import HTTPPipeline

/// A middleware that changes nothing and records, in an ``OrderLog``, when it saw each request
/// and each response or error.
///
/// Put probes between the layers of a pipeline to prove their order: requests reach probes
/// outermost first, responses innermost first. A layer that calls `next` twice (a retry) makes
/// the probes inside it record two visits.
///
/// ## Ordering
/// Anywhere: a probe observes the position you put it in and nothing else.
public struct OrderProbe: HTTPMiddleware {
    /// The name the probe records and shows in a pipeline's description.
    public let name: String
    private let log: OrderLog

    /// Creates a probe.
    ///
    /// - Parameters:
    ///   - name: The name to record, unique within the pipeline.
    ///   - log: The log shared by every probe of the pipeline.
    public init(_ name: String, log: OrderLog) {
        self.name = name
        self.log = log
    }

    /// Records the request, passes it on unchanged, and records the response or error.
    ///
    /// - Parameters:
    ///   - request: The request, passed on unchanged.
    ///   - next: The rest of the pipeline.
    /// - Returns: What `next` returned, unchanged.
    /// - Throws: What `next` threw, unchanged.
    public func intercept(
        _ request: HTTPRequest,
        next: HTTPNext
    ) async throws -> HTTPResponse {
        log.record(layer: name, phase: .request, request: request)
        do {
            let response = try await next(request)
            log.record(layer: name, phase: .response, request: request, status: response.status)
            return response
        } catch {
            log.record(layer: name, phase: .error, request: request)
            throw error
        }
    }
}

/// The attempt number of the exchange in progress, as set by a retrying middleware.
///
/// A middleware that calls `next` more than once (a retry layer) binds ``current`` around each
/// call, starting at 1, so that layers inside it (logging, probes) can say which attempt they saw:
///
/// ```swift
/// struct RetryOnce503: HTTPMiddleware {
///     func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
///         let first = try await HTTPAttempt.$current.withValue(1) { try await next(request) }
///         guard first.status == 503 else { return first }
///         return try await HTTPAttempt.$current.withValue(2) { try await next(request) }
///     }
/// }
/// ```
///
/// Outside any retrying layer ``current`` is `nil`.
public enum HTTPAttempt {
    /// The 1-based attempt number bound by the nearest retrying layer outside, or `nil`.
    @TaskLocal public static var current: Int?
}

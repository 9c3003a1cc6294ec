public import HTTPPipeline
import HTTPPipelineRedaction

/// Puts an `HTTPObserver` on each call, and reports each call's and each attempt's
/// start and end to it; the plugins inside report what they decide on the way.
///
/// Two placements, like the timeouts': ``call(_:)`` once per call, outermost, which starts the
/// call's observation (so every layer inside can report to it) and reports `callStarted` and
/// `callFinished`; and ``attempt()`` inside retry and hedging, which reports `attemptStarted`
/// and `attemptFinished`, the latter with the transport's transfer metrics. An end is reported
/// when the response's body has been read to its end (at once for a buffered body), so its
/// duration and metrics are the whole exchange's.
///
/// ```swift
/// import HTTPPipeline
/// import HTTPPipelineEvents
/// import HTTPPipelineRetry
/// import HTTPPipelineURLSession
///
/// struct PrintingObserver: HTTPObserver {
///     func observe(_ event: HTTPEvent) {
///         print(event.call, event.kind, event.attempt ?? 0, event.status?.code ?? 0)
///     }
/// }
///
/// let client = Pipeline(transport: URLSessionTransport()) {
///     ObserverMiddleware.call(PrintingObserver())
///     RetryMiddleware(policy: .default)
///     ObserverMiddleware.attempt()
/// }
/// ```
///
/// ## Ordering
///
/// `call(_:)` outermost: outside every layer that reports (retry, redirects, auth, the cache,
/// the limit, the breaker, hedging), since a layer outside it has no observation to report to;
/// in the standard stack, at the `outermost` point. `attempt()` inside retry and hedging: one
/// start and end per attempt and per hedged copy (in the standard stack, at the `insideAuth`
/// point, which is inside hedging). Without a `call(_:)` outside, `attempt()` reports nothing.
public struct ObserverMiddleware: HTTPMiddleware, PlacementDeclaring {
    enum Placement: Sendable {
        case call(any HTTPObserver)
        case attempt
    }

    let placement: Placement

    /// Once per call, outermost: `observer` sees the call's events.
    ///
    /// - Parameter observer: Who sees the events; called on the calling task, so it must return
    ///   quickly.
    public static func call(_ observer: some HTTPObserver) -> Self {
        Self(placement: .call(observer))
    }

    /// Each attempt, inside retry and hedging: its start, and its end with its transfer metrics.
    public static func attempt() -> Self {
        Self(placement: .attempt)
    }

    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        switch placement {
        case .call(let observer):
            var request = request
            request.context.observation = HTTPObservation(observer: observer, url: request.url)
            request.report(.callStarted)
            return try await observing(request, ending: .callFinished, next: next)
        case .attempt:
            guard request.context.observation != nil else { return try await next(request) }
            request.report(.attemptStarted)
            return try await observing(request, ending: .attemptFinished, next: next)
        }
    }

    /// Sends `request` on and reports `kind` when the exchange ends: at the error, at once for a
    /// buffered body, or when a streamed body ends, fails or is dropped.
    private func observing(_ request: HTTPRequest, ending kind: HTTPEvent.Kind, next: HTTPNext) async throws
        -> HTTPResponse
    {
        let start = MonotonicTime.now()
        var response: HTTPResponse
        do {
            response = try await next(request)
        } catch {
            request.report(kind, error: error, duration: MonotonicTime.now() - start)
            throw error
        }
        let withMetrics = kind == .attemptFinished
        guard !response.body.isBuffered else {
            request.report(
                kind, status: response.status, duration: MonotonicTime.now() - start,
                metrics: withMetrics ? response.transferMetrics : nil)
            return response
        }
        // The report needs the head only: a large request body is not kept alive for as long
        // as a streamed response lasts.
        var reporter = request
        reporter.body = nil
        let status = response.status
        let transfer = withMetrics ? response.context.transferRecord : nil
        response.body = BodyTee.watch(response.body, keeping: 0) { [reporter] _, error in
            let abandoned = error is BodyTee.Abandoned
            reporter.report(
                kind, status: status, error: abandoned ? nil : error, duration: MonotonicTime.now() - start,
                detail: abandoned ? "abandoned" : nil, metrics: transfer?.metrics)
        }
        return response
    }

    /// Observation.
    public var roles: Set<MiddlewareRole> { [.observation] }

    /// `call(_:)` outside every layer that reports; `attempt()` inside retry and hedging.
    public var placementExpectations: [PlacementExpectation] {
        switch placement {
        case .call:
            let because = "layers outside the call's observation have nothing to report to"
            return [
                .outside(.retry, because: because), .outside(.redirects, because: because),
                .outside(.auth, because: because), .outside(.concurrencyLimit, because: because),
            ]
        case .attempt:
            return [
                .inside(.retry, because: "each attempt needs a start and end of its own"),
                .inside(.hedging, because: "each hedged copy needs a start and end of its own"),
            ]
        }
    }
}

extension MiddlewareRole {
    /// Reports a call's events to an observer.
    public static let observation: MiddlewareRole = "observation"
}

/// Keeps a cut deadline: it reports and waits for nothing but the layers below.
extension ObserverMiddleware: KeepsDeadline {}

public import HTTPPipeline

/// Propagates W3C Trace Context: a `traceparent` (and `tracestate`) on every attempt, each with a
/// span of its own under the call's, so retries and hedged copies show as siblings in a trace.
///
/// Two placements, like the timeouts': ``call(startsSampled:)`` once per call, outermost, which
/// continues the trace the caller put in ``HTTPPipeline/HTTPRequestContext/traceContext`` or
/// starts one; and ``attempt(allowing:)`` inside retry and hedging, which gives each attempt a
/// new span id and writes the fields.
///
/// ```swift
/// import HTTPPipeline
/// import HTTPPipelineRetry
/// import HTTPPipelineTracing
///
/// let client = Pipeline(transport: URLSessionTransport()) {
///     TraceContextMiddleware.call()
///     RetryMiddleware(policy: .default)
///     TraceContextMiddleware.attempt()
/// }
/// ```
///
/// ## Ordering
///
/// `call()` outside retry, redirects and hedging: one trace for the whole call. `attempt()`
/// inside them (in the standard stack, at the `insideAuth` point, which is inside hedging): every
/// attempt and every hedged copy gets its own span id under the call's, and a redirect's hop is
/// judged by its own origin. The fields go only to the call's own origin and to the origins you
/// allow: a redirect to another origin carries none.
public struct TraceContextMiddleware: HTTPMiddleware, PlacementDeclaring {
    enum Placement: Sendable, Equatable {
        case call(sampled: Bool)
        case attempt(allowed: Set<HTTPOrigin>)
    }

    let placement: Placement

    /// Once per call, outermost: the trace the caller gave in the request's context (a context
    /// made from incoming fields with ``TraceContext/init(traceparent:tracestate:)``), or a new
    /// one.
    ///
    /// - Parameter startsSampled: Whether a trace it starts is sampled; `true` by default. A
    ///   continued trace keeps its own flag.
    public static func call(startsSampled: Bool = true) -> Self {
        Self(placement: .call(sampled: startsSampled))
    }

    /// Each attempt, inside retry and hedging: a child span of the call's, written as
    /// `traceparent` and `tracestate`, to the call's own origin and to `origins`.
    ///
    /// - Parameter origins: Other origins that may receive the fields; none by default.
    public static func attempt(allowing origins: [HTTPOrigin] = []) -> Self {
        Self(placement: .attempt(allowed: Set(origins)))
    }

    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        switch placement {
        case .call(let sampled):
            if request.context.traceContext == nil { request.context.traceContext = .start(sampled: sampled) }
            return try await next(request)
        case .attempt(let allowed):
            // Without a call layer above, the attempt starts its own trace.
            let parent = request.context.traceContext ?? .start()
            let origin = HTTPOrigin(request.url)
            let callOrigin = request.callOrigin ?? origin
            guard let origin, origin == callOrigin || allowed.contains(origin) else {
                request.fields[TraceFields.traceparent] = nil
                request.fields[TraceFields.tracestate] = nil
                return try await next(request)
            }
            let span = parent.child()
            request.fields[TraceFields.traceparent] = span.traceparent
            request.fields[TraceFields.tracestate] = span.tracestate
            request.context.traceContext = span
            return try await next(request)
        }
    }

    /// Trace context.
    public var roles: Set<MiddlewareRole> { [.traceContext] }

    /// `call()` outside retry; `attempt()` inside retry and hedging.
    public var placementExpectations: [PlacementExpectation] {
        switch placement {
        case .call:
            [.outside(.retry, because: "one trace for the whole call: inside retry, each attempt would start its own")]
        case .attempt:
            [
                .inside(.retry, because: "each attempt needs a span of its own, so retries show as siblings"),
                .inside(.hedging, because: "each hedged copy needs a span of its own"),
            ]
        }
    }
}

enum TraceFields {
    static let traceparent = HTTPField.Name(unchecked: "traceparent")
    static let tracestate = HTTPField.Name(unchecked: "tracestate")
}

extension MiddlewareRole {
    /// Propagates trace context.
    public static let traceContext: MiddlewareRole = "trace-context"
}

enum TraceContextKey: HTTPContextKey {
    typealias Value = TraceContext
}

extension HTTPRequestContext {
    /// The trace the request belongs to: set it to continue a trace (one read from an incoming
    /// request), or leave it to ``TraceContextMiddleware/call(startsSampled:)`` to start one.
    /// Inside ``TraceContextMiddleware/attempt(allowing:)`` it is the attempt's own span.
    public var traceContext: TraceContext? {
        get { self[TraceContextKey.self] }
        set { self[TraceContextKey.self] = newValue }
    }
}

/// Keeps a cut deadline: it writes fields and waits for nothing but the layers below.
extension TraceContextMiddleware: KeepsDeadline {}

public import HTTPPipeline

/// Stops sending to a service that keeps failing: when too many calls to one origin failed
/// recently, the circuit opens and every call to it is turned away at once, sending nothing,
/// until a break has passed and a probe call finds the service well again.
///
/// ```swift
/// import HTTPPipelineRetry
///
/// let pipeline = Pipeline(transport: URLSessionTransport()) {
///     RetryMiddleware(policy: .default)
///     CircuitBreakerMiddleware(policy: .default, onStateChange: { change in myLogger.info("\(change)") })
/// }
/// ```
///
/// - **Closed**: calls go through; each outcome is judged by the policy's
///   ``CircuitBreakerPolicy/isFailure`` (by default 5xx statuses, `HTTPTimeoutError` and
///   transient transport errors fail; 4xx statuses and the caller's cancellation do not). When at
///   least ``CircuitBreakerPolicy/minimumThroughput`` calls were judged in the last
///   ``CircuitBreakerPolicy/samplingDuration`` and the share that failed reaches
///   ``CircuitBreakerPolicy/failureRatio``, the circuit opens.
/// - **Open** for ``CircuitBreakerPolicy/breakDuration``: every call throws
///   ``CircuitOpenError`` with the time left (`retryAfter`), and nothing is sent.
/// - **Half-open**: ``CircuitBreakerPolicy/halfOpenProbes`` calls go through as probes, the
///   others are turned away as if open. The first probe judged closes the circuit (a success) or
///   opens it again for another break (a failure).
///
/// There is one circuit per origin (`https://api.example.com:443`), or per key a call sets in
/// its context (`HTTPRequestContext.circuitBreakerKey`). The response is judged by its head; a
/// streamed body is passed on untouched. Time is read on the injected clock. Each state change
/// goes to `onStateChange`, in the order the changes happened, never under a lock; its
/// description is a log line (`circuit https://api.example.com:443: closed -> open`).
///
/// All copies of one middleware value share their circuits. A circuit that is closed with no
/// call judged in the last sampling duration is dropped when new keys arrive (it knows nothing a
/// new one would not), so a client that calls ever more origins holds the circuits of the
/// origins it used lately and the open ones, not one per origin it ever called.
///
/// ## Ordering
/// - **Inside retry**: the breaker judges every attempt, so a failing service opens it after
///   `minimumThroughput` attempts, and once open it turns the next attempt away with an error
///   retry's default policy does not retry: the call ends at once, with no waits and nothing
///   sent. Outside retry it judges one outcome per call, after all its attempts, and opens
///   several times slower (a diagnostic says so).
/// - **Outside the per-attempt timeout**: an attempt cut by the timeout is judged a failure.
///   Inside it, the timeout cancels the call beneath the breaker, which sees only a
///   cancellation, not judged: a hanging service never opens the circuit (a diagnostic says so).
/// - **Inside the deadline**: a call the deadline cuts is the caller's limit, not the service's
///   failure; the breaker sees the cancellation and does not judge it.
/// - **Inside redirects**: each hop is judged in the circuit of its own origin.
/// - **Auth either side**: a 401 is not a failure, before or after auth's refresh.
public struct CircuitBreakerMiddleware: HTTPMiddleware {
    let breaker: CircuitBreaker

    /// Creates the layer and its circuits.
    ///
    /// - Parameters:
    ///   - policy: When to open, for how long, and what fails; ``CircuitBreakerPolicy/default``.
    ///   - clock: The clock windows and breaks are measured on; `ContinuousClock` by default.
    ///   - onStateChange: Called with each state change of any circuit, in order; `nil` for none.
    public init(
        policy: CircuitBreakerPolicy = .default,
        clock: any Clock<Duration> = ContinuousClock(),
        onStateChange: (@Sendable (CircuitStateChange) -> Void)? = nil
    ) {
        breaker = CircuitBreaker(policy: policy, timeline: Timeline(clock), observer: onStateChange)
    }

    /// The policy.
    public var policy: CircuitBreakerPolicy { breaker.policy }

    /// The state of the circuit a request would be judged in now.
    ///
    /// - Parameter request: The request (its origin, or its context's key).
    /// - Returns: The circuit's state; closed for a circuit that has seen no call.
    public func state(for request: HTTPRequest) -> CircuitState {
        breaker.state(of: Self.key(of: request))
    }

    /// Sends the request unless its circuit is open, and judges the outcome.
    ///
    /// - Parameters:
    ///   - request: The request, passed on unchanged.
    ///   - next: The rest of the pipeline.
    /// - Returns: The response.
    /// - Throws: ``CircuitOpenError`` when the circuit turns the call away (nothing is sent), or
    ///   what `next` threw.
    @inline(__always)
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        // Turning a call away changes no state: only an admitted call has a change to report.
        var admission: CircuitStateChange?
        let ticket = try breaker.admit(Self.key(of: request), change: &admission)
        report(admission, for: request)
        do {
            let response = try await next(request)
            report(breaker.record(ticket, failure: breaker.policy.isFailure(.response(response.head))), for: request)
            return response
        } catch {
            // An error is the service's failure, or not judged at all (the caller's cancellation,
            // an invalid request, a layer's own error): only a response shows the service is well,
            // so such an error neither closes a half-open circuit nor dilutes the failure ratio.
            let cancelled = error is CancellationError || Task.isCancelled
            let change = breaker.record(
                ticket, failure: !cancelled && breaker.policy.isFailure(.failure(error)) ? true : nil)
            report(change, for: request)
            throw error
        }
    }

    /// Tells the call's observer of a change this call made.
    private func report(_ change: CircuitStateChange?, for request: HTTPRequest) {
        guard let change else { return }
        request.report(.breakerStateChanged, detail: "\(change.from) to \(change.to)")
    }

    /// How many circuits the breaker holds now (idle closed ones are dropped as new keys come).
    package var circuitCount: Int { breaker.circuitCount }

    /// The circuit a request belongs to: its context's key, else its origin.
    static func key(of request: HTTPRequest) -> String {
        if let key = request.context.circuitBreakerKey { return key }
        return HTTPOrigin(request.url)?.description ?? ""
    }
}

/// Bound once when a pipeline is built, its `intercept` called directly from this module.
extension CircuitBreakerMiddleware: BindsWhenBuilt {}

/// Keeps a cut deadline: it judges and waits for nothing but the layers below.
extension CircuitBreakerMiddleware: KeepsDeadline {}

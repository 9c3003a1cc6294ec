public import Foundation

/// Sees what a pipeline does for each call: the call and each attempt starting and ending, and
/// what the plugins decide on the way (a retry scheduled, a token refreshed, a redirect followed,
/// a cached answer served, a wait for a slot, a breaker opening, a hedged copy sent).
///
/// Install one with `ObserverMiddleware.call(_:)` (module `HTTPPipelineEvents`) outermost, and
/// `ObserverMiddleware.attempt()` inside retry and hedging for each attempt's own events. The
/// plugins report through ``HTTPRequest/report(_:status:error:duration:delay:detail:metrics:)``;
/// none of them prints. With no observer installed, a report costs one look into the request's
/// context.
///
/// ```swift
/// import HTTPPipeline
/// import Synchronization
///
/// struct CountingObserver: HTTPObserver {
///     let counts = EventCounts()
///     func observe(_ event: HTTPEvent) {
///         counts.add(event.kind)
///     }
/// }
///
/// final class EventCounts: Sendable {
///     private let state = Mutex<[HTTPEvent.Kind: Int]>([:])
///     func add(_ kind: HTTPEvent.Kind) { state.withLock { $0[kind, default: 0] += 1 } }
/// }
/// ```
public protocol HTTPObserver: Sendable {
    /// Called once per event, on the task that made it, while the call waits: return quickly,
    /// and never block (hand slow work, such as writing to a file, to a task of your own).
    /// Events of one call arrive in the order they happened; events of different calls, and of a
    /// call's concurrent hedged copies, may interleave.
    ///
    /// - Parameter event: What happened.
    func observe(_ event: HTTPEvent)
}

/// The observer a call reports to, and which call it is: set in the request's context by
/// `ObserverMiddleware.call(_:)`, read by ``HTTPRequest/report(_:status:error:duration:delay:detail:metrics:)``.
public final class HTTPObservation: Sendable {
    /// Who sees the call's events.
    public let observer: any HTTPObserver
    /// The call the events belong to.
    public let call: HTTPCallID
    /// When the call started, in monotonic time.
    @usableFromInline let start: Duration
    /// The URL the call was made to, and its origin, worked out once: most events are about it.
    @usableFromInline let url: URL
    @usableFromInline let origin: HTTPOrigin?

    /// An observation of a new call to `url`, starting now.
    ///
    /// - Parameters:
    ///   - observer: Who sees the call's events.
    ///   - url: The URL the call is made to.
    public init(observer: any HTTPObserver, url: URL) {
        self.observer = observer
        call = HTTPCallID.next()
        start = MonotonicTime.now()
        self.url = url
        origin = HTTPOrigin(url)
    }
}

enum ObservationKey: HTTPContextKey {
    typealias Value = HTTPObservation
}

extension HTTPRequestContext {
    /// The observer this call reports to; `nil` (the default) when nobody observes it.
    public var observation: HTTPObservation? {
        get { self[ObservationKey.self] }
        set { self[ObservationKey.self] = newValue }
    }
}

extension HTTPRequest {
    /// Tells the call's observer (``HTTPRequestContext/observation``) that `kind` happened to this
    /// request; does nothing, and evaluates no `detail`, when nobody observes the call.
    ///
    /// The event carries the request's method, origin and attempt number; never its path, query,
    /// fields or body, so an observer sees no secret the request holds.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - status: The response's status, when there is one.
    ///   - error: The error that ended what the event reports, if any.
    ///   - duration: How long what ended took.
    ///   - delay: How long until what was scheduled.
    ///   - detail: A short, secret-free word on why (`"status 503"`, `"closed to open"`).
    ///   - metrics: The attempt's transfer metrics.
    @inlinable
    public func report(
        _ kind: HTTPEvent.Kind,
        status: HTTPResponse.Status? = nil,
        error: (any Error)? = nil,
        duration: Duration? = nil,
        delay: Duration? = nil,
        detail: @autoclosure () -> String? = nil,
        metrics: HTTPTransferMetrics? = nil
    ) {
        guard let observation = context.observation else { return }
        observation.observer.observe(
            HTTPEvent(
                kind, call: observation.call, attempt: context.attempt,
                elapsed: MonotonicTime.now() - observation.start, method: method,
                origin: url == observation.url ? observation.origin : HTTPOrigin(url),
                status: status, error: error, duration: duration, delay: delay, detail: detail(), metrics: metrics))
    }
}

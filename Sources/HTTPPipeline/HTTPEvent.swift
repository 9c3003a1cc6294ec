/// One thing that happened to a call, as an ``HTTPObserver`` sees it.
///
/// Every event names its call, its attempt (when inside a retrying layer), when it happened
/// (since the call started), and the request's method and origin. The other fields are set
/// where the kind's documentation says; a field a kind does not use is `nil`.
public struct HTTPEvent: Sendable {
    /// What happened.
    public var kind: Kind
    /// The call it happened to.
    public var call: HTTPCallID
    /// The attempt's number (`HTTPRequestContext.attempt`), or `nil` outside any retrying layer.
    public var attempt: Int?
    /// When it happened, since the call started.
    public var elapsed: Duration
    /// The request's method.
    public var method: HTTPMethod
    /// The origin the request was going to (after a redirect, the hop's), or `nil` for a URL
    /// without one.
    public var origin: HTTPOrigin?
    /// The response's status, where one came.
    public var status: HTTPResponse.Status?
    /// The error that ended what the event reports.
    public var error: (any Error)?
    /// How long what ended took: the call, the attempt, the refresh.
    public var duration: Duration?
    /// How long until what was scheduled happens: the retry's wait.
    public var delay: Duration?
    /// A short word on why, never holding a secret: `"status 503"`, `"closed to open"`.
    public var detail: String?
    /// The attempt's transfer metrics, on ``Kind/attemptFinished``, final.
    public var metrics: HTTPTransferMetrics?

    /// An event; the plugins make theirs with
    /// ``HTTPRequest/report(_:status:error:duration:delay:detail:metrics:)``.
    public init(
        _ kind: Kind,
        call: HTTPCallID,
        attempt: Int? = nil,
        elapsed: Duration,
        method: HTTPMethod,
        origin: HTTPOrigin?,
        status: HTTPResponse.Status? = nil,
        error: (any Error)? = nil,
        duration: Duration? = nil,
        delay: Duration? = nil,
        detail: String? = nil,
        metrics: HTTPTransferMetrics? = nil
    ) {
        self.kind = kind
        self.call = call
        self.attempt = attempt
        self.elapsed = elapsed
        self.method = method
        self.origin = origin
        self.status = status
        self.error = error
        self.duration = duration
        self.delay = delay
        self.detail = detail
        self.metrics = metrics
    }

}

/// Monotonic time since a fixed instant of this process, as a `Duration`: what observations and
/// logs count on. A `Duration` rather than a `ContinuousClock.Instant`, whose layout is not known
/// where it is held in an async function (each one held costs an allocation).
@usableFromInline
package enum MonotonicTime {
    @usableFromInline @inline(never)
    package static func now() -> Duration {
        origin.duration(to: .now)
    }

    private static let origin = ContinuousClock.now
}

extension HTTPEvent {
    /// What happened: one of the kinds below, or one your own middleware names.
    public struct Kind: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The kind's name, as `description` prints it.
        public let name: String

        /// A kind of your own.
        ///
        /// - Parameter name: Its name; the built-in kinds use dotted lower-case names.
        public init(_ name: String) {
            self.name = name
        }

        public init(stringLiteral value: String) {
            self.init(value)
        }

        public var description: String { name }

        /// The call began (`ObserverMiddleware.call(_:)`).
        public static let callStarted: Kind = "call.started"
        /// The call ended: with its `status` and `duration` once the response's body has been read
        /// to its end (or at once when it was buffered), or with the `error` that ended it (a body
        /// dropped before its end: `HTTPCallAbandoned`).
        public static let callFinished: Kind = "call.finished"
        /// An attempt went out (`ObserverMiddleware.attempt()`), numbered in `attempt`.
        public static let attemptStarted: Kind = "attempt.started"
        /// An attempt ended, as `callFinished` does, with the transport's `metrics`.
        public static let attemptFinished: Kind = "attempt.finished"
        /// Retry will send another attempt after `delay`; `detail` says why (`"status 503"`,
        /// `"timeout"`, `"error"`) and `status` or `error` is the outcome it retries.
        public static let retryScheduled: Kind = "retry.scheduled"
        /// Auth asked its source for a new credential, this call's answer having been refused
        /// (`status`, usually 401).
        public static let authRefreshStarted: Kind = "auth.refresh.started"
        /// Auth found a refresh already under way for another call and waits for it.
        public static let authRefreshJoined: Kind = "auth.refresh.joined"
        /// The refresh this call started or joined ended after `duration`, with the `error` that
        /// failed it, if any.
        public static let authRefreshFinished: Kind = "auth.refresh.finished"
        /// A redirect is followed: `status` is the 3xx, `origin` the hop that answered it, and
        /// `detail` the next hop's origin.
        public static let redirectFollowed: Kind = "redirect.followed"
        /// The cache answered from its store, fresh, with nothing sent. The cache's events come
        /// when its answer is known, after any attempt it sent.
        public static let cacheHit: Kind = "cache.hit"
        /// The cache had nothing it could use and sends the request.
        public static let cacheMiss: Kind = "cache.miss"
        /// The cache asked the origin whether its stored answer is still good and it was (`304`).
        public static let cacheRevalidated: Kind = "cache.revalidated"
        /// The cache served a stale answer (allowed by `stale-while-revalidate`,
        /// `stale-if-error`, `max-stale` or the call's cache policy).
        public static let cacheStaleServed: Kind = "cache.stale"
        /// The concurrency limit had no slot free: the call waits.
        public static let limiterQueued: Kind = "limiter.queued"
        /// The call took a slot after waiting `duration`.
        public static let limiterAdmitted: Kind = "limiter.admitted"
        /// A circuit breaker changed state, on this call's outcome or arrival; `detail` says
        /// from and to (`"closed to open"`).
        public static let breakerStateChanged: Kind = "breaker.state"
        /// Hedging sent another copy of the request, `delay` after the last; `detail` numbers it
        /// (`"copy 2"`).
        public static let hedgeSent: Kind = "hedge.sent"
        /// A copy answered first when more than one was sent: its answer is the call's; `detail`
        /// names it (`"copy 1"`).
        public static let hedgeWon: Kind = "hedge.won"
    }
}

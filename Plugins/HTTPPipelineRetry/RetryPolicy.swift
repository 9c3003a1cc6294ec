public import Foundation
public import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When to retry and how long to wait: a value, built once and checked when it is built.
///
/// Two decisions are kept apart: ``shouldRetry(_:for:)`` says whether an outcome is worth another
/// attempt; ``backoff`` (and a `Retry-After` header) says how long to wait first. The defaults are
/// the safe ones:
///
/// - at most 3 attempts in total, within a 30-second deadline;
/// - exponential backoff from 0.5 s, doubling, capped at 10 s, with full jitter;
/// - transient transport errors (timed out, connection lost, cannot connect, cannot find host,
///   DNS failure, not connected, …), a per-attempt `HTTPTimeoutError`, and statuses 408, 429,
///   500, 502, 503, 504 are retried (an expired total deadline never is);
///   cancellation, bad URLs and TLS trust failures never are;
/// - only idempotent methods (GET, HEAD, OPTIONS, PUT, DELETE, TRACE) are retried; POST and PATCH
///   only when the request carries an `Idempotency-Key`;
/// - `Retry-After` is honoured on 429 and 503, unless it asks for more than ``maximumDelay`` or
///   would end past the deadline: then the response is returned at once.
///
/// The common configurations never fail: ``default``, ``none`` and
/// ``attempts(_:backoff:deadline:)`` with a ``Backoff`` constant such as ``Backoff/immediate``,
/// ``Backoff/constant(_:)`` or ``Backoff/exponential(base:multiplier:cap:jitter:)``. The
/// initialiser throws, for numbers read at run time that may be out of range.
public struct RetryPolicy: Sendable {
    /// The largest attempt count a policy accepts.
    public static let maximumAttemptLimit = 20

    /// The most attempts in total, the first included.
    public let maximumAttempts: Int
    /// How long all attempts and waits together may take; no wait that would end after it starts.
    public let deadline: Duration
    /// How long to wait before each retry.
    public let backoff: Backoff
    /// The longest single wait, whether from the backoff or a `Retry-After` header. A server
    /// asking for longer gets its response returned instead of a retry.
    public let maximumDelay: Duration
    /// Statuses worth another attempt.
    public var retryableStatuses: Set<HTTPResponse.Status>
    /// Transport error codes worth another attempt.
    public var retryableErrors: Set<URLError.Code>
    /// Methods retried without an `Idempotency-Key` (upper-case).
    public var idempotentMethods: Set<String>
    /// Statuses whose `Retry-After` header is honoured.
    public var retryAfterStatuses: Set<HTTPResponse.Status>
    /// Whether the middleware adds a fresh `Idempotency-Key` to a POST or PATCH that has none, so
    /// that it becomes retryable (the server must support the header).
    public var addsIdempotencyKey: Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maximumAttempts: The most attempts in total, from 1 (no retry) to 20.
    ///   - deadline: How long all attempts may take together; positive, at most a day.
    ///   - backoff: How long to wait before each retry.
    ///   - maximumDelay: The longest single wait; at least the backoff's cap, at most a day.
    /// - Throws: ``RetryPolicyError`` when a value is out of range.
    public init(
        maximumAttempts: Int = 3,
        deadline: Duration = .seconds(30),
        backoff: Backoff = .standard,
        maximumDelay: Duration? = nil
    ) throws(RetryPolicyError) {
        guard (1...Self.maximumAttemptLimit).contains(maximumAttempts) else {
            throw .invalidAttempts(maximumAttempts)
        }
        guard deadline > .zero, deadline <= .seconds(86_400) else {
            throw .invalidDuration("the deadline must be positive and at most a day")
        }
        let maximumDelay = maximumDelay ?? backoff.cap
        guard maximumDelay >= backoff.cap, maximumDelay <= .seconds(86_400) else {
            throw .invalidDuration("the maximum delay must be at least the backoff's cap and at most a day")
        }
        self.maximumAttempts = maximumAttempts
        self.deadline = deadline
        self.backoff = backoff
        self.maximumDelay = maximumDelay
        self.retryableStatuses = [408, 429, 500, 502, 503, 504]
        self.retryableErrors = Self.transientErrors
        self.idempotentMethods = Set(HTTPMethod.idempotentMethods.map(\.rawValue))
        self.retryAfterStatuses = [429, 503]
        self.addsIdempotencyKey = false
    }

    private init(unchecked maximumAttempts: Int, backoff: Backoff, deadline: Duration = .seconds(30)) {
        self.maximumAttempts = maximumAttempts
        self.deadline = deadline
        self.backoff = backoff
        self.maximumDelay = backoff.cap
        self.retryableStatuses = [408, 429, 500, 502, 503, 504]
        self.retryableErrors = Self.transientErrors
        self.idempotentMethods = Set(HTTPMethod.idempotentMethods.map(\.rawValue))
        self.retryAfterStatuses = [429, 503]
        self.addsIdempotencyKey = false
    }

    /// The safe defaults described above.
    public static let `default` = RetryPolicy(unchecked: 3, backoff: .standard)

    /// Never retry: every request is sent once.
    public static let none = RetryPolicy(unchecked: 1, backoff: .standard)

    /// The default rules for what is retryable, with the given attempt count, backoff and
    /// deadline.
    ///
    /// ```swift
    /// let retry = RetryMiddleware(policy: .attempts(4, backoff: .exponential(base: .milliseconds(200))))
    /// let noWaiting = RetryPolicy.attempts(3, backoff: .immediate)   // for tests
    /// ```
    ///
    /// Never fails: `count` is brought into 1...``maximumAttemptLimit`` (0 or less makes one
    /// attempt, no retry), and `deadline` into a nanosecond to a day. The longest single wait is
    /// the backoff's cap. For numbers
    /// read at run time, ``init(maximumAttempts:deadline:backoff:maximumDelay:)`` refuses them
    /// instead.
    ///
    /// - Parameters:
    ///   - count: The most attempts in total, the first included.
    ///   - backoff: How long to wait before each retry; ``Backoff/standard`` by default.
    ///   - deadline: How long all attempts may take together; 30 s by default.
    /// - Returns: The policy.
    public static func attempts(
        _ count: Int,
        backoff: Backoff = .standard,
        deadline: Duration = .seconds(30)
    ) -> RetryPolicy {
        RetryPolicy(
            unchecked: min(max(count, 1), maximumAttemptLimit),
            backoff: backoff,
            deadline: min(max(deadline, .nanoseconds(1)), .seconds(86_400))
        )
    }

    /// Exponential backoff with the given numbers, and the default rules for what is retryable.
    ///
    /// Throws for numbers out of range; for numbers known when the code is written,
    /// `.attempts(n, backoff: .exponential(...))` says the same without `try`.
    ///
    /// - Parameters:
    ///   - maximumAttempts: The most attempts in total.
    ///   - base: The first retry's ceiling.
    ///   - multiplier: Growth per retry.
    ///   - cap: The largest backoff wait.
    ///   - jitter: How waits are spread.
    ///   - deadline: How long all attempts may take together.
    /// - Returns: The policy.
    /// - Throws: ``RetryPolicyError`` when a value is out of range.
    public static func exponential(
        maximumAttempts: Int = 3,
        base: Duration = .milliseconds(500),
        multiplier: Double = 2,
        cap: Duration = .seconds(10),
        jitter: Backoff.Jitter = .full,
        deadline: Duration = .seconds(30)
    ) throws(RetryPolicyError) -> RetryPolicy {
        try RetryPolicy(
            maximumAttempts: maximumAttempts,
            deadline: deadline,
            backoff: Backoff(base: base, multiplier: multiplier, cap: cap, jitter: jitter)
        )
    }

    /// Transport failures that are usually gone on the next attempt (shared with hedging and the
    /// circuit breaker).
    public static let transientErrors: Set<URLError.Code> = URLError.transientCodes
}

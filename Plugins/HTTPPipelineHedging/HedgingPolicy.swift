public import Foundation
public import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When to send another copy of a slow request, how many copies at most, and which answers end
/// the call: a value, built once and checked when it is built.
///
/// The defaults:
/// - one hedge (``maximumAttempts`` 2), started when the first attempt has not answered
///   within ``delay``;
/// - an answer is *acceptable*, and wins, unless it is a 408, 429 or 5xx status, a transient
///   transport error (the ones retry retries), or an `HTTPTimeoutError` from a layer inside;
///   any other error (a bad URL, a TLS failure) is acceptable too: it ends the call, since another
///   copy would fail the same way;
/// - only idempotent methods (`HTTPMethod.idempotentMethods`) are hedged, unless
///   ``hedgesNonIdempotentMethods`` is set; a request whose body cannot be read twice is never
///   hedged, whatever the policy says.
///
/// ```swift
/// let hedging = HedgingMiddleware(policy: .after(.milliseconds(50)))
/// let twoHedges = HedgingPolicy.after(.milliseconds(50), maximumAttempts: 3)
/// ```
public struct HedgingPolicy: Sendable {
    /// The most attempts a policy allows, the first included.
    public static let maximumAttemptLimit = 10

    /// How long an attempt may go without a response head before the next one starts.
    public let delay: Duration
    /// The most attempts started in all, the first included (2: one hedge); a failed attempt is
    /// not replaced.
    public let maximumAttempts: Int
    /// Statuses that do not win: the call waits for another attempt.
    public var unacceptableStatuses: Set<HTTPResponse.Status>
    /// Transport errors that do not win: the call waits for another attempt.
    public var transientErrors: Set<URLError.Code>
    /// Methods hedged without ``hedgesNonIdempotentMethods``.
    public var idempotentMethods: Set<HTTPMethod>
    /// Whether requests of other methods (POST, PATCH) are hedged too, when their body can be
    /// read twice: for endpoints that are safe to call twice (a search sent as POST, or a server
    /// honouring `Idempotency-Key`). Off by default.
    public var hedgesNonIdempotentMethods: Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - delay: How long an attempt may go unanswered before the next starts; from 1 ms to a
    ///     minute.
    ///   - maximumAttempts: The most attempts, the first included, from 1 (no hedge) to 10.
    /// - Throws: ``HedgingPolicyError`` when a value is out of range.
    public init(delay: Duration, maximumAttempts: Int = 2) throws(HedgingPolicyError) {
        guard delay >= .milliseconds(1), delay <= .seconds(60) else {
            throw .invalidDelay("the delay must be from 1 ms to a minute")
        }
        guard (1...Self.maximumAttemptLimit).contains(maximumAttempts) else {
            throw .invalidAttempts(maximumAttempts)
        }
        self.init(unchecked: delay, maximumAttempts: maximumAttempts)
    }

    private init(unchecked delay: Duration, maximumAttempts: Int) {
        self.delay = delay
        self.maximumAttempts = maximumAttempts
        self.unacceptableStatuses = Set((500...599).map { HTTPResponse.Status(code: $0) }).union([408, 429])
        self.transientErrors = URLError.transientCodes
        self.idempotentMethods = HTTPMethod.idempotentMethods
        self.hedgesNonIdempotentMethods = false
    }

    /// A policy with the default rules that hedges after `delay`, for numbers known when the code
    /// is written.
    ///
    /// Never fails: `delay` is brought into 1 ms … 1 minute and `maximumAttempts` into
    /// 1 … ``maximumAttemptLimit``. For numbers read at run time,
    /// ``init(delay:maximumAttempts:)`` refuses them instead.
    ///
    /// - Parameters:
    ///   - delay: How long an attempt may go unanswered before the next starts. Pick it near the
    ///     95th percentile of the endpoint's normal latency: lower hedges healthy calls, higher
    ///     waits longer on stalled ones.
    ///   - maximumAttempts: The most attempts, the first included; 2 by default.
    /// - Returns: The policy.
    public static func after(_ delay: Duration, maximumAttempts: Int = 2) -> HedgingPolicy {
        HedgingPolicy(
            unchecked: min(max(delay, .milliseconds(1)), .seconds(60)),
            maximumAttempts: min(max(maximumAttempts, 1), maximumAttemptLimit))
    }

    /// Whether an attempt's outcome wins the call (or, for an error, ends it).
    ///
    /// - Parameter outcome: The attempt's response head, or the error it threw.
    /// - Returns: `false` for a status in ``unacceptableStatuses``, a transport error in
    ///   ``transientErrors`` or an `HTTPTransientFailure` that says it is transient, and an
    ///   `HTTPTimeoutError` (a limit inside cut this attempt; a
    ///   limit outside cancels the hedging layer itself); `true` otherwise.
    public func accepts(_ outcome: Result<HTTPResponseHead, any Error>) -> Bool {
        switch outcome {
        case .success(let head):
            return !unacceptableStatuses.contains(head.status)
        case .failure(let error):
            if error is HTTPTimeoutError { return false }
            if let urlError = error as? URLError { return !transientErrors.contains(urlError.code) }
            // Another transport's error (CurlTransportError) says itself whether it is transient.
            if let failure = error as? any HTTPTransientFailure { return !failure.isTransient }
            return true
        }
    }

    /// Whether `request` may be sent more than once at a time under this policy: its body can be
    /// read again (`HTTPRequest.isReplayable`), and its method is idempotent or the policy hedges
    /// other methods too.
    ///
    /// - Parameter request: The request.
    /// - Returns: `true` when the request may be hedged.
    public func mayHedge(_ request: HTTPRequest) -> Bool {
        guard maximumAttempts > 1, request.isReplayable else { return false }
        return hedgesNonIdempotentMethods || idempotentMethods.contains(request.method)
    }
}

/// A hedging policy or budget that cannot work, refused when it is built.
public struct HedgingPolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case invalidAttempts, invalidDelay, invalidBudget
    }

    private let code: Code
    /// What is out of range, in words.
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// The attempt count is not between 1 and ``HedgingPolicy/maximumAttemptLimit``.
    ///
    /// - Parameter attempts: The count given.
    /// - Returns: The error.
    public static func invalidAttempts(_ attempts: Int) -> HedgingPolicyError {
        HedgingPolicyError(
            .invalidAttempts,
            "a hedging policy needs 1 to \(HedgingPolicy.maximumAttemptLimit) attempts, not \(attempts)")
    }

    /// The delay is out of range; the text says why.
    ///
    /// - Parameter reason: Why, in words.
    /// - Returns: The error.
    public static func invalidDelay(_ reason: String) -> HedgingPolicyError {
        HedgingPolicyError(.invalidDelay, "invalid hedging delay: \(reason)")
    }

    /// The budget's numbers are out of range; the text says which.
    ///
    /// - Parameter reason: Which, in words.
    /// - Returns: The error.
    public static func invalidBudget(_ reason: String) -> HedgingPolicyError {
        HedgingPolicyError(.invalidBudget, "invalid hedging budget: \(reason)")
    }
}

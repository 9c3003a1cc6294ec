public import Foundation
public import HTTPPipeline

extension RetryPolicy {
    /// What one attempt ended in.
    public enum Outcome: Sendable {
        /// A response arrived.
        case response(HTTPResponseHead)
        /// An error was thrown.
        case failure(any Error)
    }

    /// Whether an outcome is worth another attempt, judged by the outcome alone (attempts left,
    /// the deadline and the budget are the middleware's business). A per-attempt timeout
    /// (`HTTPTimeoutError` with limit `.attempt`) is worth another attempt; an expired total
    /// deadline never is. A `URLError` is worth one when its code is in ``retryableErrors``;
    /// another transport's error when it is an `HTTPTransientFailure` that says it is transient
    /// (`CurlTransportError`'s timeout, refused connection, DNS failure and lost connection).
    /// A failure that came before the request was sent (`HTTPFailureClass.notSent`: a refused
    /// connection, a name that did not resolve) is retried whatever the method; any other only
    /// for a request ``isReplayable(_:)`` allows.
    ///
    /// - Parameters:
    ///   - outcome: What the attempt ended in.
    ///   - request: The request that was sent.
    /// - Returns: `true` when the request may be replayed and the outcome looks transient.
    public func shouldRetry(_ outcome: Outcome, for request: HTTPRequest) -> Bool {
        // The outcome first: on the happy path a status lookup settles it, without hashing the
        // method for the replay check.
        let retryable: Bool
        switch outcome {
        case .response(let response):
            retryable = retryableStatuses.contains(response.status)
        case .failure(let error):
            if error is CancellationError { return false }
            if let timeout = error as? HTTPTimeoutError {
                retryable = timeout.isRetryable
            } else if let urlError = error as? URLError {
                retryable = retryableErrors.contains(urlError.code)
            } else if let failure = error as? any HTTPTransientFailure {
                retryable = failure.isTransient
            } else {
                return false
            }
            // Nothing reached the server (a refused connection, a name that did not resolve):
            // any method may go again, if its body can be read again.
            if retryable, HTTPFailureClass(error) == .notSent { return request.isReplayable }
        }
        return retryable && isReplayable(request)
    }

    /// Whether the request may be sent again: its method is idempotent, or it carries an
    /// `Idempotency-Key`; and its body can be read again (`HTTPRequest.isReplayable`: a
    /// single-pass stream is sent once).
    ///
    /// - Parameter request: The request.
    /// - Returns: `true` when sending it twice is safe.
    public func isReplayable(_ request: HTTPRequest) -> Bool {
        guard request.isReplayable else { return false }
        if idempotentMethods.contains(request.method.rawValue) { return true }  // HTTPMethod is upper-cased
        return request.fields["Idempotency-Key"]?.isEmpty == false
    }

    /// How long the server asked to wait before the next attempt, if this status honours it.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - now: The wall-clock time the response arrived, used when the header is a date and the
    ///     response has no `Date` header to measure it against.
    /// - Returns: The wait, or `nil` when there is no usable `Retry-After`.
    public func retryAfter(_ response: HTTPResponseHead, now: Date) -> RetryAfter? {
        guard retryAfterStatuses.contains(response.status),
            let value = response.fields["Retry-After"]
        else { return nil }
        let reference = response.fields["Date"].flatMap { HTTPDate.parse($0) } ?? now
        return RetryAfter(value, relativeTo: reference)
    }
}

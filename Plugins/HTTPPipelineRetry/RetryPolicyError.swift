/// A retry policy that cannot work, refused when it is built.
public struct RetryPolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case invalidAttempts, invalidBackoff, invalidDuration, invalidBudget
    }

    private let code: Code
    /// What is out of range, in words.
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// The attempt count is not between 1 and ``RetryPolicy/maximumAttemptLimit``.
    ///
    /// - Parameter attempts: The count given.
    /// - Returns: The error.
    public static func invalidAttempts(_ attempts: Int) -> RetryPolicyError {
        RetryPolicyError(
            .invalidAttempts,
            "a retry policy needs 1 to \(RetryPolicy.maximumAttemptLimit) attempts in total, not \(attempts)")
    }

    /// The backoff's numbers are out of range; the text says which.
    ///
    /// - Parameter reason: Which, in words.
    /// - Returns: The error.
    public static func invalidBackoff(_ reason: String) -> RetryPolicyError {
        RetryPolicyError(.invalidBackoff, "invalid backoff: \(reason)")
    }

    /// A delay or the deadline is negative, zero where it must be positive, or absurdly long.
    ///
    /// - Parameter reason: Which, in words.
    /// - Returns: The error.
    public static func invalidDuration(_ reason: String) -> RetryPolicyError {
        RetryPolicyError(.invalidDuration, "invalid duration: \(reason)")
    }

    /// The budget's numbers are out of range; the text says which.
    ///
    /// - Parameter reason: Which, in words.
    /// - Returns: The error.
    public static func invalidBudget(_ reason: String) -> RetryPolicyError {
        RetryPolicyError(.invalidBudget, "invalid retry budget: \(reason)")
    }
}

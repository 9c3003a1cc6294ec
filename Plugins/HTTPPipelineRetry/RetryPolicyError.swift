/// A retry policy that cannot work, refused when it is built.
public enum RetryPolicyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The attempt count is not between 1 and ``RetryPolicy/maximumAttemptLimit``.
    case invalidAttempts(Int)
    /// The backoff's numbers are out of range; the text says which.
    case invalidBackoff(String)
    /// A delay or the deadline is negative, zero where it must be positive, or absurdly long.
    case invalidDuration(String)
    /// The budget's numbers are out of range; the text says which.
    case invalidBudget(String)

    public var description: String {
        switch self {
        case .invalidAttempts(let attempts):
            "a retry policy needs 1 to \(RetryPolicy.maximumAttemptLimit) attempts in total, not \(attempts)"
        case .invalidBackoff(let reason): "invalid backoff: \(reason)"
        case .invalidDuration(let reason): "invalid duration: \(reason)"
        case .invalidBudget(let reason): "invalid retry budget: \(reason)"
        }
    }
}

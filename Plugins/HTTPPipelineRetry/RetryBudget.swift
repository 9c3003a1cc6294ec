import HTTPPipeline

/// A limit on retries shared by every request through one retry middleware, so that a failing
/// dependency sees bounded extra load instead of a retry storm.
///
/// In the spirit of tower's `TpsBudget`: every first attempt deposits, every retry withdraws, and
/// over a sliding ``window`` retries may add at most ``ratio`` of the first attempts, plus
/// ``minimumRetries`` so that a quiet client can still retry. With the defaults (0.2, 10, 10 s),
/// 1,000 calls against a dead server make at most 1,000 × 1.2 + 10 attempts in a window.
///
/// One budget belongs to one middleware value and its copies; give two middleware the same
/// budget to make them share it.
///
/// ## Time
/// A budget keeps its own time: the window is measured on the clock it was created with, from
/// the moment it was created. Middleware sharing it may have been created at any time and may
/// sleep on other clocks (their clocks time their waits and deadlines only); every deposit and
/// withdrawal lands in the window by the budget's clock, so the limit holds however far apart
/// they were made. In tests, give the budget the same `ManualClock` as the middleware, so that
/// advancing it also moves the window.
public final class RetryBudget: Sendable {
    /// The share of first attempts that retries may add, from 0 to 10.
    public let ratio: Double
    /// Retries always allowed per window, whatever the traffic.
    public let minimumRetries: Int
    /// How far back deposits and withdrawals count.
    public let window: Duration

    /// The window's mechanism, shared with hedging's budget.
    private let base: SlidingBudget

    /// Creates a budget.
    ///
    /// - Parameters:
    ///   - ratio: The share of first attempts that retries may add; 0.2 by default.
    ///   - minimumRetries: Retries always allowed per window; 10 by default.
    ///   - window: How far back traffic counts; 10 seconds by default, from 1 second to 1 hour.
    ///   - clock: The clock the window is measured on, from now; `ContinuousClock` by default.
    /// - Throws: ``RetryPolicyError/invalidBudget(_:)`` when a value is out of range.
    public init(
        ratio: Double = 0.2,
        minimumRetries: Int = 10,
        window: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(RetryPolicyError) {
        guard ratio.isFinite, (0...10).contains(ratio) else {
            throw .invalidBudget("the ratio must be between 0 and 10")
        }
        guard (0...1_000_000).contains(minimumRetries) else {
            throw .invalidBudget("the minimum must be between 0 and 1,000,000")
        }
        guard window >= .seconds(1), window <= .seconds(3_600) else {
            throw .invalidBudget("the window must be between 1 second and 1 hour")
        }
        self.ratio = ratio
        self.minimumRetries = minimumRetries
        self.window = window
        self.base = SlidingBudget(ratio: ratio, minimum: minimumRetries, window: window, clock: clock)
    }

    /// Records a first attempt, now on the budget's clock.
    func deposit() {
        base.deposit()
    }

    /// Takes one retry out of the budget, now on the budget's clock, if the budget allows it.
    ///
    /// - Returns: `false` when retries in the window already reach the allowance.
    func withdraw() -> Bool {
        base.withdraw()
    }
}

import HTTPPipeline

/// A limit on hedges shared by every request through one hedging middleware, so that hedging
/// cannot double the load on a slow dependency.
///
/// Every hedged call deposits, every extra attempt withdraws, and over a sliding ``window`` the
/// extra attempts may add at most ``ratio`` of the calls (10 % by default), plus
/// ``minimumHedges``. With the defaults (0.1, 0, 10 s) a server never sees more than 1.1 times
/// the calls: a hedge is refused until ten calls have deposited. The window is measured on the
/// budget's clock from its creation, as retry's budget is (the two share their mechanism).
///
/// Give two middleware the same budget to make them share it.
public final class HedgingBudget: Sendable {
    /// The share of calls that hedges may add, from 0 to 1.
    public let ratio: Double
    /// Hedges always allowed per window, whatever the traffic.
    public let minimumHedges: Int
    /// How far back calls and hedges count.
    public let window: Duration
    private let base: SlidingBudget

    /// Creates a budget.
    ///
    /// - Parameters:
    ///   - ratio: The share of calls that hedges may add; 0.1 by default, at most 1.
    ///   - minimumHedges: Hedges always allowed per window; 0 by default.
    ///   - window: How far back traffic counts; 10 seconds by default, from 1 second to 1 hour.
    ///   - clock: The clock the window is measured on, from now; `ContinuousClock` by default.
    /// - Throws: ``HedgingPolicyError/invalidBudget(_:)`` when a value is out of range.
    public init(
        ratio: Double = 0.1,
        minimumHedges: Int = 0,
        window: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(HedgingPolicyError) {
        guard ratio.isFinite, (0...1).contains(ratio) else {
            throw .invalidBudget("the ratio must be between 0 and 1")
        }
        guard (0...1_000_000).contains(minimumHedges) else {
            throw .invalidBudget("the minimum must be between 0 and 1,000,000")
        }
        guard window >= .seconds(1), window <= .seconds(3_600) else {
            throw .invalidBudget("the window must be between 1 second and 1 hour")
        }
        self.ratio = ratio
        self.minimumHedges = minimumHedges
        self.window = window
        self.base = SlidingBudget(ratio: ratio, minimum: minimumHedges, window: window, clock: clock)
    }

    /// Records a hedged call.
    func deposit() {
        base.deposit()
    }

    /// Takes one extra attempt out of the budget, if it allows one.
    func withdraw() -> Bool {
        base.withdraw()
    }
}

/// Extra sends allowed over a sliding window as a share of first sends: the mechanism behind
/// retry's and hedging's budgets (in the spirit of tower's `TpsBudget`).
///
/// Every first send deposits, every extra send (a retry, a hedge) withdraws, and over the last
/// `window` withdrawals may reach at most `ratio` × deposits, rounded down, plus `minimum`.
/// The window is ten slots measured on the budget's own clock from its creation, so middleware
/// sharing one budget place their traffic on one time base, whatever their own clocks.
/// The plugins check the numbers before they make one.
package final class SlidingBudget: Sendable {
    private static let slotCount = 10
    private struct Slot {
        var index: Int64 = .min
        var deposits = 0
        var withdrawals = 0
    }

    /// The share of deposits that withdrawals may reach.
    package let ratio: Double
    /// Withdrawals always allowed per window.
    package let minimum: Int
    private let slots = Locked([Slot](repeating: Slot(), count: SlidingBudget.slotCount))
    /// The budget's own time base.
    private let timeline: Timeline
    /// The length of one slot (a tenth of the window).
    private let slotNanoseconds: Int64

    /// Creates a budget; the plugin has checked the numbers (a window of at least a second).
    package init(ratio: Double, minimum: Int, window: Duration, clock: any Clock<Duration>) {
        self.ratio = ratio
        self.minimum = minimum
        self.timeline = Timeline(clock)
        self.slotNanoseconds = max((window / Self.slotCount).wholeNanoseconds, 1)
    }

    /// Records a first send, now on the budget's clock.
    package func deposit() {
        slots.withLock { slots in
            slots[Self.touch(&slots, slotIndex())].deposits += 1
        }
    }

    /// Takes one extra send out of the budget, now on the budget's clock, if the budget allows it.
    ///
    /// - Returns: `false` when extra sends in the window already reach the allowance.
    package func withdraw() -> Bool {
        slots.withLock { slots in
            let index = slotIndex()
            let position = Self.touch(&slots, index)
            let live = slots.filter { $0.index > index - Int64(Self.slotCount) }
            let deposits = live.reduce(0) { $0 + $1.deposits }
            let withdrawals = live.reduce(0) { $0 + $1.withdrawals }
            let allowance = Int((Double(deposits) * ratio).rounded(.down)) + minimum
            guard withdrawals < allowance else { return false }
            slots[position].withdrawals += 1
            return true
        }
    }

    /// The slot the present moment falls in. Read under the lock, so that slots are touched in
    /// the order of time and a caller delayed between reading the clock and taking the lock
    /// never empties a newer slot for an older one.
    private func slotIndex() -> Int64 {
        // Integer nanoseconds: dividing one `Duration` by another goes through `Double`.
        let elapsed = timeline.elapsed.wholeNanoseconds
        return elapsed >= 0 ? elapsed / slotNanoseconds : (elapsed + 1) / slotNanoseconds - 1
    }

    /// The position of the slot for `index`, emptied first if it holds an older window's counts.
    private static func touch(_ slots: inout [Slot], _ index: Int64) -> Int {
        let position = Int(((index % Int64(slotCount)) + Int64(slotCount)) % Int64(slotCount))
        if slots[position].index != index {
            slots[position] = Slot(index: index)
        }
        return position
    }
}
